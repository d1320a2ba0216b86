import { expect, test, type APIRequestContext, type Browser, type Page, type TestInfo } from "@playwright/test";
import { registerViaApi } from "./support";

// The marketplace story as real users live it, once with JavaScript and once without: a merchant
// posts an opportunity with one vacancy, two freelancers apply, the merchant counters one, that
// freelancer accepts, the opportunity is filled and the other application is rejected with its reason.

/** Money as Intl writes it, with a no-break space after "R$". */
const money = (text: string) => new RegExp(text.replace(/[.$]/g, "\\$&").replace(/ /g, "\\s"));

/** A fresh account through POST /api/register. */
function register(
  request: APIRequestContext,
  account_type: "merchant" | "freelancer",
  display_name: string,
  full_name = display_name === "Marina" ? "Marina Contratante" : `${display_name} Freelancer`,
) {
  return registerViaApi(request, { account_type, display_name, full_name });
}

/** A browser of its own for each user, with the project's settings and JavaScript on or off. */
async function userPage(browser: Browser, testInfo: TestInfo, javaScriptEnabled: boolean) {
  const { baseURL, locale, timezoneId } = testInfo.project.use;
  const context = await browser.newContext({ baseURL, locale, timezoneId, javaScriptEnabled });
  return context.newPage();
}

/** Logs in by typing into the login page, as people do. */
async function logIn(page: Page, email: string, password: string, name: string) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await expect(page.getByText(`Olá, ${name}`).first()).toBeVisible();
}

function toast(page: Page, text: string | RegExp) {
  return page.getByRole("status").filter({ hasText: text });
}

async function postOpportunity(page: Page, title: string) {
  await page.goto("/opportunities");
  await page.getByRole("link", { name: "Nova oportunidade" }).first().click();
  await expect(page).toHaveURL(/\/opportunities\/create$/);
  await expect(page).toHaveTitle("Nova oportunidade | Freela");
  await page.getByLabel("Título").fill(title);
  await page.getByLabel("Descrição").fill("Site com cardápio, endereço, horários e botão de WhatsApp para a padaria.");
  await page.getByLabel("Categoria").selectOption("desenvolvimento");
  await page.getByLabel("Habilidades desejadas").fill("React, SEO");
  await page.getByLabel("Preço fixo").check();
  // A price that is not a price is refused next to its field, and nothing typed is lost.
  await page.getByLabel("Orçamento mínimo (R$)").fill("mil e quinhentos");
  await page.getByLabel("Orçamento máximo (R$)").fill("R$ 3.000");
  await page.getByLabel("Vagas").fill("1");
  await page.getByRole("button", { name: "Publicar oportunidade" }).click();
  await expect(page.locator("#budget_min-error")).toHaveText("Informe um valor em reais, como 1.500,00.");
  await expect(page.getByLabel("Título")).toHaveValue(title);
  await expect(page.getByLabel("Orçamento máximo (R$)")).toHaveValue("R$ 3.000");
  await expect(page.getByLabel("Categoria")).toHaveValue("desenvolvimento");

  await page.getByLabel("Orçamento mínimo (R$)").fill("1.500,00");
  await page.getByRole("button", { name: "Publicar oportunidade" }).click();
  await expect(page).toHaveURL(/\/opportunities\/[0-9a-f-]{36}$/);
  await expect(toast(page, "Oportunidade publicada com sucesso.")).toBeVisible();
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await expect(page.locator(".opp-detail .facts")).toContainText(money("R$ 1.500,00 – R$ 3.000,00"));
  return new URL(page.url()).pathname.split("/").pop()!;
}

async function apply(page: Page, title: string, price: string, days: string) {
  // The search lives in the URL, like every filter of the list.
  await page.goto("/opportunities");
  await page.getByLabel("Buscar").fill(title);
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/[?&]q=/);
  await page.getByRole("link", { name: title }).click();
  await page
    .getByLabel("Carta de apresentação")
    .fill("Faço sites rápidos e acessíveis para pequenos negócios há sete anos.");
  await page.getByLabel("Seu preço (R$)").fill(price);
  await page.getByLabel("Prazo de entrega (dias)").fill(days);
  await page.getByRole("button", { name: "Enviar candidatura" }).click();
  await expect(page).toHaveURL(/\/applications\/[0-9a-f-]{36}$/);
  await expect(toast(page, "Candidatura enviada!")).toBeVisible();
  await expect(page.getByText("Pendente · aguardando o contratante").first()).toBeVisible();
  return new URL(page.url()).pathname.split("/").pop()!;
}

function story(javaScriptEnabled: boolean) {
  test("a merchant hires one of two freelancers after a counter-offer", async ({ page, browser }, testInfo) => {
    // Three accounts, two proposals, a negotiation and a hire: about 30 steps through the pages.
    test.slow();
    const stamp = Date.now().toString(36);
    const title = `Site da padaria ${stamp}`;
    const merchant = await register(page.request, "merchant", "Marina");
    const julia = await register(page.request, "freelancer", "Julinha", "Júlia Rocha");
    const pedro = await register(page.request, "freelancer", "Pedrão", "Pedro Alves");

    // The merchant posts an opportunity with one vacancy.
    await logIn(page, merchant.email, merchant.password, "Marina");
    const uuid = await postOpportunity(page, title);

    // Two freelancers apply, each in a browser of their own.
    const juliaPage = await userPage(browser, testInfo, javaScriptEnabled);
    await logIn(juliaPage, julia.email, julia.password, "Julinha");
    const juliaApp = await apply(juliaPage, title, "2.500,00", "20");
    const pedroPage = await userPage(browser, testInfo, javaScriptEnabled);
    await logIn(pedroPage, pedro.email, pedro.password, "Pedrão");
    await apply(pedroPage, title, "2800", "25");

    // The merchant's list shows what awaits them; the bell counts the two applications.
    await page.goto("/");
    await expect(page).toHaveTitle("Minhas Oportunidades | Freela");
    await expect(page.locator(".bell-count")).toHaveText("2");
    const card = page.locator(".opp-card").filter({ hasText: title });
    await expect(card.getByText("2 candidaturas")).toBeVisible();
    await expect(card.getByText("2 aguardando você")).toBeVisible();

    // The merchant counters Júlia's application.
    await page.goto(`/opportunities/${uuid}/applications`);
    const juliaCard = page.locator(".app-card").filter({ hasText: "Julinha" });
    await expect(juliaCard.getByText("Pendente · aguardando você")).toBeVisible();
    await juliaCard.getByRole("link", { name: "Negociar" }).click();
    await expect(page).toHaveTitle("Negociação de Candidatura | Freela");
    // The counter-offer form starts with the terms on the table, price as the field takes it.
    await expect(page.getByLabel("Preço (R$)")).toHaveValue("2.500,00");
    await expect(page.getByLabel("Prazo de entrega (dias)")).toHaveValue("20");
    await page.getByLabel("Preço (R$)").fill("2.000,00");
    await page.getByLabel("Prazo de entrega (dias)").fill("15");
    await page.getByLabel("Mensagem (opcional)").fill("Fechamos em R$ 2.000 com entrega em 15 dias?");
    await page.getByRole("button", { name: "Enviar contraproposta" }).click();
    await expect(toast(page, "Contraproposta enviada.")).toBeVisible();
    await expect(page.getByText("Contraproposta · aguardando o freelancer").first()).toBeVisible();
    // It is not the merchant's turn any more: no accept, no counter form; rejecting is still allowed.
    await expect(page.getByRole("link", { name: /Aceitar proposta/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Enviar contraproposta" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Recusar candidatura" })).toBeVisible();

    // Júlia is notified, sees the counter-offer beside her own terms and accepts it.
    await juliaPage.goto("/my-applications");
    await expect(juliaPage.locator(".bell-count")).toHaveText("1");
    const mine = juliaPage.locator(".app-card").filter({ hasText: title });
    await expect(mine.getByText("Contraproposta · aguardando você")).toBeVisible();
    await mine.getByRole("link", { name: "Negociar" }).click();
    await expect(juliaPage).toHaveURL(new RegExp(`/applications/${juliaApp}/negotiate$`));
    await expect(juliaPage.locator(".compare-current")).toContainText(money("R$ 2.000,00"));
    await expect(juliaPage.locator(".compare-current")).toContainText("15 dias");
    await expect(juliaPage.locator(".compare-previous")).toContainText(money("R$ 2.500,00"));
    await expect(juliaPage.locator(".timeline-item")).toHaveCount(2);
    await expect(juliaPage.getByText("Fechamos em R$ 2.000 com entrega em 15 dias?")).toBeVisible();
    // Accepting hires her: a step first says on which terms, and that it becomes a contract.
    await juliaPage.getByRole("link", { name: /Aceitar proposta/ }).click();
    const step = juliaPage.getByRole("alertdialog", { name: "Aceitar a proposta de Marina?" });
    await expect(step).toContainText(money("R$ 2.000,00, com entrega em 15 dias"));
    await expect(step).toContainText("Você fica contratado(a) por Marina");
    await step.getByRole("button", { name: "Sim, aceitar e fechar negócio" }).click();
    await expect(juliaPage).toHaveURL(new RegExp(`/applications/${juliaApp}$`));
    await expect(toast(juliaPage, "Proposta aceita. Negócio fechado!")).toBeVisible();
    await expect(juliaPage.locator(".badge.app-accepted").first()).toHaveText("Aceita");
    await expect(juliaPage.getByText(/Negócio fechado: R\$\s2\.000,00 com entrega em 15 dias\./)).toBeVisible();

    // With its one vacancy taken, the opportunity is filled.
    await page.goto(`/opportunities/${uuid}`);
    await expect(page.locator(".opp-detail .status-filled")).toHaveText("Preenchida");
    await expect(page.locator(".opp-detail .facts")).toContainText("1 de 1 preenchidas");

    // Pedro's application was rejected for it, and he is told why.
    await pedroPage.goto("/my-applications?status=rejected");
    const pedros = pedroPage.locator(".app-card").filter({ hasText: title });
    await expect(pedros.getByText("Encerrada")).toBeVisible();
    await expect(pedros.getByText("Recusada")).toHaveCount(0);
    await expect(pedros.getByText("vagas preenchidas")).toBeVisible();
    await expect(pedroPage.locator(".bell-count")).toHaveText("1");

    // Júlia's application is hers and the merchant's only; to Pedro it does not exist.
    const foreign = await pedroPage.goto(`/applications/${juliaApp}/negotiate`);
    expect(foreign?.status()).toBe(404);
    await expect(pedroPage.getByRole("heading", { name: "Página não encontrada" })).toBeVisible();
    const malformed = await pedroPage.goto("/applications/not-an-id!/negotiate");
    expect(malformed?.status()).toBe(404);

    // Opening the notification marks it read and leads to the application.
    await pedroPage.goto("/notifications");
    await pedroPage.getByRole("button", { name: new RegExp(`Sua candidatura a “${title}” foi recusada`) }).click();
    await expect(pedroPage).toHaveURL(/\/applications\/[0-9a-f-]{36}$/);
    await expect(pedroPage.getByText("Motivo: vagas preenchidas")).toBeVisible();
    await expect(pedroPage.locator(".bell-count")).toHaveCount(0);
  });

  test("a destructive action waits for its confirmation", async ({ page, browser }, testInfo) => {
    test.slow();
    const title = `Logo da confeitaria ${Date.now().toString(36)}`;
    const merchant = await register(page.request, "merchant", "Marina");
    const freelancer = await register(page.request, "freelancer", "Rafa");
    await logIn(page, merchant.email, merchant.password, "Marina");
    await postOpportunity(page, title);

    const rafa = await userPage(browser, testInfo, javaScriptEnabled);
    await logIn(rafa, freelancer.email, freelancer.password, "Rafa");
    const id = await apply(rafa, title, "900", "7");
    await rafa.goto(`/applications/${id}/negotiate`);

    // The first click only asks; going back leaves everything as it was.
    await rafa.getByRole("link", { name: "Retirar candidatura" }).click();
    await expect(rafa.getByRole("alertdialog")).toContainText("Retirar sua candidatura?");
    await rafa.getByRole("alertdialog").getByRole("link", { name: "Voltar" }).click();
    await expect(rafa.getByRole("alertdialog")).toHaveCount(0);
    await expect(rafa.getByText("Pendente · aguardando o contratante").first()).toBeVisible();

    await rafa.getByRole("link", { name: "Retirar candidatura" }).click();
    await rafa.getByRole("button", { name: "Sim, retirar" }).click();
    await expect(toast(rafa, "Candidatura retirada.")).toBeVisible();
    await expect(rafa.locator(".badge.app-withdrawn").first()).toHaveText("Retirada");
    await expect(rafa.getByRole("link", { name: "Retirar candidatura" })).toHaveCount(0);
  });
}

test.describe("the marketplace, with JavaScript", () => {
  test.use({ javaScriptEnabled: true });
  story(true);
});

test.describe("the marketplace, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  story(false);
});
