import { expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import { endToEndId, money, OPERATOR, registerViaApi, toast } from "./support";

// The browser on PostgreSQL (project "chromium-postgres", with the manual Pix provider on): one
// short story through the pages, every step a different kind of write. The stories themselves run
// on SQLite; the engine's own checks are the Vitest suites' (both engines) and the server
// suites'. The accounts here confirm their e-mail by the link they were sent, through the outbox.

async function signedIn(browser: Browser, testInfo: TestInfo, who: { email: string; password: string }, name: string) {
  const { baseURL, locale, timezoneId } = testInfo.project.use;
  const page = await (await browser.newContext({ baseURL, locale, timezoneId })).newPage();
  // Signing in by typing, as people do.
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(who.email);
  await page.getByLabel("Senha").fill(who.password);
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await expect(page.getByText(`Olá, ${name}`).first()).toBeVisible();
  return page;
}

async function confirmStep(page: Page, link: string, dialog: string, button: string | RegExp) {
  await page.getByRole("link", { name: link }).click();
  await page.getByRole("alertdialog", { name: dialog }).getByRole("button", { name: button }).click();
}

test("sign in → publish → apply → hire → fund → deliver → approve, on PostgreSQL", async ({
  browser,
  request,
}, testInfo) => {
  test.slow();
  const title = `Cardápio da lanchonete ${Date.now().toString(36)}`;
  const merchant = await registerViaApi(request, { account_type: "merchant", display_name: "Marina" });
  const freelancer = await registerViaApi(request, { account_type: "freelancer", display_name: "Julinha" });
  const marina = await signedIn(browser, testInfo, merchant, "Marina");
  const julia = await signedIn(browser, testInfo, freelancer, "Julinha");

  // Publish.
  await marina.goto("/opportunities/create");
  await marina.getByLabel("Título").fill(title);
  await marina.getByLabel("Descrição").fill("Cardápio impresso e digital para uma lanchonete, com fotos dos pratos.");
  await marina.getByLabel("Categoria").selectOption("design");
  await marina.getByLabel("Habilidades desejadas").fill("Figma");
  await marina.getByLabel("Preço fixo").check();
  await marina.getByLabel("Orçamento mínimo (R$)").fill("800,00");
  await marina.getByLabel("Orçamento máximo (R$)").fill("1.200,00");
  await marina.getByRole("button", { name: "Publicar oportunidade" }).click();
  await expect(toast(marina, "Oportunidade publicada com sucesso.")).toBeVisible();
  const opportunity = new URL(marina.url()).pathname.split("/").pop()!;

  // Apply (found by the full-text search, PostgreSQL's own).
  await julia.goto(`/opportunities?q=${encodeURIComponent(title)}`);
  await julia.getByRole("link", { name: title }).click();
  await julia.getByLabel("Carta de apresentação").fill("Faço cardápios para restaurantes e lanchonetes há cinco anos.");
  await julia.getByLabel("Seu preço (R$)").fill("1.000,00");
  await julia.getByLabel("Prazo de entrega (dias)").fill("7");
  await julia.getByRole("button", { name: "Enviar candidatura" }).click();
  await expect(toast(julia, "Candidatura enviada!")).toBeVisible();
  const application = new URL(julia.url()).pathname.split("/").pop()!;

  // Hire: the merchant accepts the proposal.
  await marina.goto(`/opportunities/${opportunity}/applications`);
  await marina.locator(".app-card").filter({ hasText: "Julinha" }).getByRole("link", { name: "Negociar" }).click();
  await confirmStep(marina, "Aceitar proposta", "Aceitar a proposta de Julinha?", "Sim, aceitar e fechar negócio");
  await expect(toast(marina, "Proposta aceita. Negócio fechado!")).toBeVisible();

  // Fund: a Pix charge to the platform's key, the receipt confirmed by the operator.
  await marina.goto(`/contracts/${application}`);
  await marina.getByRole("button", { name: "Pagar R$ 1.000,00 com Pix" }).click();
  await expect(toast(marina, "Cobrança Pix gerada.")).toBeVisible();
  const olga = await signedIn(browser, testInfo, OPERATOR, "Olga");
  await olga.goto("/admin/payments");
  const receipt = olga.locator(".queue-item").filter({ hasText: merchant.email });
  await receipt.getByLabel("Identificador fim a fim (E2E)").fill(endToEndId("P"));
  await receipt.getByLabel("Valor recebido (R$)").fill("1.000,00");
  await receipt.getByRole("button", { name: "Confirmar recebimento" }).click();
  await expect(toast(olga, "Recebimento confirmado.")).toBeVisible();

  // Deliver.
  await julia.goto(`/contracts/${application}`);
  await expect(julia.locator(".badge.milestone-funded")).toHaveText("Pago e retido");
  await julia.getByLabel("Mensagem da entrega").fill("Seguem o cardápio impresso e o digital.");
  await julia.getByRole("button", { name: "Enviar entrega" }).click();
  await expect(toast(julia, "Entrega enviada!")).toBeVisible();

  // Approve: the contract is completed and the money released to the freelancer's balance.
  await marina.goto(`/contracts/${application}`);
  await confirmStep(
    marina,
    "Aprovar entrega",
    "Aprovar esta entrega?",
    money("Sim, aprovar, liberar R$ 1.000,00 e concluir"),
  );
  await expect(toast(marina, money("Entrega aprovada: R$ 1.000,00 liberados. Contrato concluído!"))).toBeVisible();
  await expect(marina.locator(".badge.milestone-released")).toHaveText("Liberado");
  await julia.goto("/financeiro");
  await expect(julia.locator(".figure").filter({ hasText: "Disponível para saque" })).toContainText(money("R$ 900,00"));
  for (const page of [marina, julia, olga]) await page.context().close();
});
