import { expect, test } from "./fixtures";
import { E2E_MERCADOPAGO_PORT, E2E_PAYMENTS } from "../../playwright.config";
import { startMercadoPago, type MercadoPagoMock } from "../payments/mercadopago-server";
import {
  apiToken,
  endToEndId,
  hire,
  identityViaApi,
  money,
  noAxeFindings,
  OPERATOR,
  registerViaApi,
  toast,
  userPage,
} from "./support";

// Pagamento garantido, as the two sides live it, with JavaScript and without, on both payments
// servers (PAYMENTS=escrow): the hire waits for its money, the merchant pays the Pix charge, the
// receipt is confirmed — by Mercado Pago's signed webhook (answered by a local stand-in) on the
// project "chromium-payments", by the operator in the console's payments desk with the Pix's
// end-to-end id and amount on "chromium-pix-manual" (the manual provider) — the freelancer
// delivers, the merchant approves, the freelancer's balance shows the release less the fee, the
// freelancer registers a Pix key and asks for a payout, both statements show it, and the operator
// pays the payout from the desk (/admin/payments).

/** A text with amounts in it, as a pattern (money() with parentheses taken literally too). */
const says = (text: string) => new RegExp(text.replace(/[.$()?]/g, "\\$&").replace(/ /g, "\\s"));

// The stand-in listens only for "chromium-payments", the project that talks to it: the other
// project's worker may run at the same time.
let mercadoPago: MercadoPagoMock | undefined;
test.beforeAll(async () => {
  if (test.info().project.name !== "chromium-payments") return;
  mercadoPago = await startMercadoPago({
    token: E2E_PAYMENTS.MERCADOPAGO_ACCESS_TOKEN,
    secret: E2E_PAYMENTS.MERCADOPAGO_WEBHOOK_SECRET,
    port: E2E_MERCADOPAGO_PORT,
  });
});
test.afterAll(() => mercadoPago?.close());

function story(javaScriptEnabled: boolean) {
  test("hire → Pix charge → receipt confirmed → deliver → approve → balance → payout asked → statements → operator pays", async ({
    request,
    browser,
  }, testInfo) => {
    test.skip(
      !javaScriptEnabled && testInfo.project.name === "chromium-payments",
      "without JavaScript, the same pages as on chromium-pix-manual",
    );
    test.slow();
    const { merchant, freelancer, id } = await hire(request);
    // Payouts go to the verified person only: Julinha's CPF, verified, is her key.
    const cpf = await identityViaApi(request, freelancer, { verified: true });
    const marina = await userPage(browser, testInfo, javaScriptEnabled, merchant);
    const julia = await userPage(browser, testInfo, javaScriptEnabled, freelancer);

    // Nothing starts before the money is held: the status, both sides' first line and the
    // deadline (counted from the funding) say so.
    await julia.goto(`/contracts/${id}`);
    await expect(julia.getByText(/Esperando o contratante pagar a etapa/)).toBeVisible();
    await expect(julia.getByRole("button", { name: "Enviar entrega" })).toHaveCount(0);
    await expect(julia.locator(".page-header .badge")).toHaveText("Aguardando pagamento");
    await expect(julia.getByText(/Aguardando o pagamento da etapa “Projeto completo”/)).toBeVisible();
    await expect(julia.getByText("10 dias a partir do pagamento da etapa")).toBeVisible();
    await expect(julia.locator(".countdown")).toHaveCount(0);
    await expect(julia.getByText("O freelancer está trabalhando")).toHaveCount(0);

    // The merchant sees what the freelancer receives after the fee, and pays by Pix.
    await marina.goto(`/contracts/${id}`);
    await expect(marina.locator(".data-table")).toContainText(money("R$ 1.350,00"));
    await expect(marina.getByText(/Taxa da plataforma: 10%/)).toBeVisible();
    await marina.getByRole("button", { name: "Pagar R$ 1.500,00 com Pix" }).click();
    await expect(toast(marina, "Cobrança Pix gerada.")).toBeVisible();
    await expect(marina.getByRole("img", { name: "QR Code Pix de R$ 1.500,00" })).toBeVisible();
    const brCode = marina.getByLabel("Pix copia e cola");
    await expect(brCode).toHaveValue(/^000201/);
    if (javaScriptEnabled) {
      // The shared copy button: the code on the clipboard, and the button says so.
      await marina.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      await marina.getByRole("button", { name: "Copiar código" }).click();
      await expect(marina.getByRole("button", { name: "Código copiado" })).toBeVisible();
      expect(await marina.evaluate(() => navigator.clipboard.readText())).toBe(await brCode.inputValue());
    } else await expect(marina.getByRole("button", { name: "Copiar código" })).toHaveCount(0);
    // axe runs in the page, so only where scripts run; the markup is the same without.
    if (javaScriptEnabled) await noAxeFindings(marina);

    const olga = await userPage(browser, testInfo, javaScriptEnabled, OPERATOR);
    if (testInfo.project.name === "chromium-pix-manual") {
      // The platform's own key: the operator finds the receipt in the desk and confirms it with
      // the Pix's end-to-end id; a wrong amount moves nothing and keeps what was typed.
      await expect(brCode).toHaveValue(/pagamentos@freela\.dev/);
      await olga.goto("/admin/payments");
      const receipt = olga.locator(".queue-item").filter({ hasText: merchant.email });
      await expect(receipt).toContainText(money("R$ 1.500,00"));
      if (javaScriptEnabled) await noAxeFindings(olga);
      const e2e = endToEndId(javaScriptEnabled ? "R" : "S");
      await receipt.getByLabel("Identificador fim a fim (E2E)").fill(e2e);
      await receipt.getByLabel("Valor recebido (R$)").fill("1.400,00");
      await receipt.getByRole("button", { name: "Confirmar recebimento" }).click();
      await expect(receipt).toContainText("O valor recebido é diferente do valor da cobrança.");
      await expect(receipt.getByLabel("Identificador fim a fim (E2E)")).toHaveValue(e2e);
      await expect(receipt.getByLabel("Valor recebido (R$)")).toHaveValue("1.400,00");
      await receipt.getByLabel("Valor recebido (R$)").fill("1.500,00");
      await receipt.getByRole("button", { name: "Confirmar recebimento" }).click();
      await expect(toast(olga, "Recebimento confirmado.")).toBeVisible();
      await expect(olga.locator(".queue-item").filter({ hasText: merchant.email })).toHaveCount(0);
    } else {
      // The payer pays; Mercado Pago notifies the app with a signed webhook.
      const mp = mercadoPago!;
      const payment = [...mp.payments.values()].at(-1)!;
      expect(payment.transaction_amount).toBe(1500);
      mp.approve(payment.id);
      const delivered = await mp.deliver(testInfo.project.use.baseURL!, mp.notification(payment.id));
      expect(delivered).toMatchObject({ status: 200, body: { outcome: "processed" } });
    }

    // The freelancer sees the milestone paid, the deadline running from now, and delivers.
    await julia.goto(`/contracts/${id}`);
    await expect(julia.locator(".badge.milestone-funded")).toHaveText("Pago e retido");
    await expect(julia.locator(".page-header .badge")).toHaveText("Em andamento");
    await expect(julia.locator(".countdown")).toHaveText("faltam 10 dias");
    await julia.getByLabel("Mensagem da entrega").fill("Seguem o logotipo e a paleta de cores.");
    await julia.getByRole("button", { name: "Enviar entrega" }).click();
    await expect(toast(julia, "Entrega enviada!")).toBeVisible();

    // The merchant approves: the money is released.
    await marina.goto(`/contracts/${id}`);
    // Every word of the approval names the amount it releases (its only milestone: it ends the contract).
    const approve = marina.getByRole("link", { name: says("Aprovar entrega (R$ 1.500,00)") });
    await expect(approve).toHaveAttribute("title", says("Aprovar libera R$ 1.500,00 e conclui o contrato."));
    await approve.click();
    const step = marina.getByRole("alertdialog", { name: "Aprovar esta entrega?" });
    await expect(step).toContainText(says("Aprovar libera R$ 1.500,00 a"));
    await expect(step).toContainText(says("recebe R$ 1.350,00 (taxa de 10%)"));
    await step.getByRole("button", { name: says("Sim, aprovar, liberar R$ 1.500,00 e concluir") }).click();
    await expect(toast(marina, says("Entrega aprovada: R$ 1.500,00 liberados. Contrato concluído!"))).toBeVisible();
    await expect(marina.getByText("a entrega foi aprovada pelo contratante")).toBeVisible();
    await expect(marina.locator(".badge.milestone-released")).toHaveText("Liberado");

    // The freelancer's balance, from the ledger, on the dashboard and in /financeiro.
    await julia.goto("/dashboard");
    await expect(julia.locator(".figure").filter({ hasText: "Disponível para saque" })).toContainText(
      money("R$ 1.350,00"),
    );
    await julia.goto("/financeiro");
    await expect(julia.locator(".figure").filter({ hasText: "Disponível para saque" })).toContainText(
      money("R$ 1.350,00"),
    );
    // A key that is not what its type says is refused, with what was typed kept.
    await julia.getByLabel("Tipo da chave").selectOption("cpf");
    await julia.getByLabel("Chave Pix", { exact: true }).fill("111.111.111-11");
    await julia.getByLabel("Nome do titular").fill("Julinha Freelancer");
    await julia.getByLabel("CPF ou CNPJ do titular").fill(cpf);
    await julia.getByRole("button", { name: "Salvar chave" }).click();
    // On its field, and in the summary that links to it.
    await expect(julia.locator("#pix_key-error")).toHaveText("Esta chave não é um CPF válido.");
    await expect(julia.getByRole("link", { name: "Esta chave não é um CPF válido." })).toHaveAttribute(
      "href",
      "#pix_key",
    );
    await expect(julia.getByLabel("Nome do titular")).toHaveValue("Julinha Freelancer");
    await julia.getByLabel("Chave Pix", { exact: true }).fill(cpf);
    await julia.getByRole("button", { name: "Salvar chave" }).click();
    await expect(toast(julia, "Chave Pix salva.")).toBeVisible();
    await julia.getByRole("button", { name: "Pedir repasse de R$ 1.350,00" }).click();
    await julia.getByRole("button", { name: "Sim, pedir repasse de R$ 1.350,00", exact: true }).click();
    await expect(toast(julia, "Repasse pedido.")).toBeVisible();
    await expect(julia.getByText("Seu repasse foi pedido e está esperando o pagamento pelo Freela.")).toBeVisible();
    await expect(julia.locator(".figure").filter({ hasText: "Repasse em andamento" })).toContainText(
      money("R$ 1.350,00"),
    );
    const lines = julia.locator("#lines-title + .table-wrap tbody tr");
    await expect(lines.nth(0)).toContainText("Repasse pedido");
    await expect(lines.nth(1)).toContainText("Etapa liberada");
    if (javaScriptEnabled) await noAxeFindings(julia);

    // A printable receipt of the release, and the CSV statement.
    await lines.nth(1).getByRole("link", { name: "Ver recibo" }).click();
    await expect(julia.getByRole("heading", { name: "Recibo de liberação" })).toBeVisible();
    await expect(julia.locator(".receipt")).toContainText(money("R$ 150,00"));
    const csv = await julia.request.get("/financeiro/extrato.csv");
    expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    expect(await csv.text()).toContain("Etapa liberada");

    // The merchant's statement: paid in by Pix, nothing held any more.
    await marina.goto("/financeiro");
    await expect(marina.locator(".figure").filter({ hasText: "Pago por Pix" })).toContainText(money("R$ 1.500,00"));
    await expect(marina.locator(".figure").filter({ hasText: "Retido em etapas" })).toContainText(money("R$ 0,00"));
    await expect(marina.locator("#lines-title + .table-wrap tbody tr")).toHaveCount(2);

    // The operator pays the payout from the console: a wrong end-to-end id is refused with what
    // was typed kept; the right one pays it, and it leaves the queue.
    await olga.goto("/admin/payments");
    await expect(olga.getByRole("heading", { name: /^Repasses para enviar/ })).toBeVisible();
    const item = olga.locator(".queue-item").filter({ hasText: freelancer.email });
    await expect(item).toContainText(money("R$ 1.350,00"));
    await expect(item).toContainText(cpf);
    if (javaScriptEnabled) await noAxeFindings(olga);
    await item.getByLabel("Identificador fim a fim (E2E)").fill("E123");
    await item.getByRole("button", { name: "Marcar como pago" }).click();
    await expect(item.locator(".field-error")).toContainText("Informe o identificador fim a fim do Pix");
    await expect(item.getByLabel("Identificador fim a fim (E2E)")).toHaveValue("E123");
    const e2e = endToEndId(javaScriptEnabled ? "J" : "N");
    await item.getByLabel("Identificador fim a fim (E2E)").fill(e2e);
    await item.getByRole("button", { name: "Marcar como pago" }).click();
    await expect(toast(olga, "Repasse marcado como pago.")).toBeVisible();
    await expect(olga.locator(".queue-item").filter({ hasText: freelancer.email })).toHaveCount(0);

    // The freelancer's statement: paid out by Pix.
    await julia.goto("/financeiro");
    await expect(julia.locator(".figure").filter({ hasText: "Já recebido por Pix" })).toContainText(
      money("R$ 1.350,00"),
    );
    await expect(lines.nth(0)).toContainText("Repasse pago");
  });
}

/** The freelancer reads what they receive after the fee before committing: on the application form and in the negotiation. */
function feeBeforeCommitting(javaScriptEnabled: boolean) {
  test("the application form and the negotiation show what the freelancer receives after the fee", async ({
    request,
    browser,
  }, testInfo) => {
    const merchant = await registerViaApi(request, { account_type: "merchant", display_name: "Marina" });
    const freelancer = await registerViaApi(request, { account_type: "freelancer", display_name: "Julinha" });
    const opp = await request.post("/api/opportunities", {
      headers: await apiToken(request, merchant.email, merchant.password),
      data: {
        title: `Cardápio ilustrado ${Date.now().toString(36)}`,
        description: "Ilustrações para o cardápio de uma cafeteria de bairro, com a paleta da marca.",
        category: "design",
        skills: ["Ilustração"],
        budget_type: "fixed",
        budget_min_cents: 50_000,
        budget_max_cents: 150_000,
        location_type: "remote",
      },
    });
    const { uuid } = (await opp.json()).data;
    const julia = await userPage(browser, testInfo, javaScriptEnabled, freelancer);
    await julia.goto(`/opportunities/${uuid}`);
    const form = julia.locator("#apply");
    await expect(form).toContainText("o Freela fica com 10% do valor liberado");
    await form.getByLabel("Seu preço (R$)").fill("1.000,00");
    await form.getByLabel("Prazo de entrega (dias)").fill("7");
    if (javaScriptEnabled) {
      // Live, as the price is typed.
      await expect(form).toContainText(says("Você recebe R$ 900,00 (taxa de 10%)"));
    }
    // Without JavaScript (and with), after the first submit: refused for the missing letter, the
    // form comes back with the net amount of the price typed.
    await form.getByRole("button", { name: "Enviar candidatura" }).click();
    await expect(julia.locator("#apply")).toContainText(says("Você recebe R$ 900,00 (taxa de 10%)"));
    await julia.getByLabel("Carta de apresentação").fill("Ilustro cardápios de cafés e padarias há seis anos.");
    await julia.locator("#apply").getByRole("button", { name: "Enviar candidatura" }).click();
    await expect(toast(julia, /Candidatura enviada/)).toBeVisible();
    // The negotiation states it for the current terms (the counter-offer form, on one's turn, as the application's).
    await julia.goto(`${new URL(julia.url()).pathname}/negotiate`);
    await expect(julia.locator(".net-line")).toContainText(says("Você recebe R$ 900,00 (taxa de 10%)"));
    await julia.context().close();
  });
}

test.describe("payments, with JavaScript", () => {
  story(true);
  feeBeforeCommitting(true);
});

// Without JavaScript on the manual provider's server only: Mercado Pago's story differs from it
// in the webhook (no page), and every form of it is on the manual one too.
test.describe("payments, without JavaScript", () => {
  story(false);
  feeBeforeCommitting(false);
});
