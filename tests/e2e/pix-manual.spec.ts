import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { hire, toast, userPage } from "./support";

// Pagamento garantido with the manual provider (PAYMENTS_PROVIDER=manual, the platform's own Pix
// key), with JavaScript and without, on its own server: the merchant pays the static BR Code, the
// operator finds the receipt in the console's payments desk and confirms it with the Pix's
// end-to-end id and the amount (a wrong amount is refused with what was typed kept), the
// milestone is held; then a dispute is decided by splitting the held money: a part goes to the
// freelancer (less the fee on that part only) and the rest waits in the refunds queue until the
// operator records its return.

const money = (text: string) => new RegExp(text.replace(/[.$]/g, "\\$&").replace(/ /g, "\\s"));
const OPERATOR = { email: "operador@freela.dev", password: "freela123" };

async function noAxeFindings(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** A Pix end-to-end id (32 characters, starting with E), different in every run and story. */
const endToEndId = (tag: string) =>
  `E12345678202611240700${tag}${Date.now().toString(36).padStart(10, "0").slice(-10)}`;

function story(javaScriptEnabled: boolean) {
  test("manual Pix → operator confirms the receipt → dispute → split: part released, rest refunded", async ({
    request,
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    const { merchant, freelancer, id, title } = await hire(request);
    const marina = await userPage(browser, testInfo, javaScriptEnabled, merchant);
    const julia = await userPage(browser, testInfo, javaScriptEnabled, freelancer);
    const olga = await userPage(browser, testInfo, javaScriptEnabled, OPERATOR);
    const tag = javaScriptEnabled ? "J" : "N";

    // The merchant gets the platform's static BR Code for the milestone.
    await marina.goto(`/contracts/${id}`);
    await marina.getByRole("button", { name: "Pagar R$ 1.500,00 com Pix" }).click();
    await expect(toast(marina, "Cobrança Pix gerada.")).toBeVisible();
    await expect(marina.getByLabel("Pix copia e cola")).toHaveValue(/^000201.*pagamentos@freela\.dev/);

    // The operator confirms the receipt from the payments desk; nothing moves on a wrong amount.
    await olga.goto("/admin/payments");
    const receipt = olga.locator(".queue-item").filter({ hasText: merchant.email });
    await expect(receipt).toContainText(money("R$ 1.500,00"));
    await expect(receipt).toContainText(title);
    if (javaScriptEnabled) await noAxeFindings(olga);
    const e2e = endToEndId(tag);
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

    // Both sides see the money held; the merchant's statement shows the Pix paid in.
    await julia.goto(`/contracts/${id}`);
    await expect(julia.locator(".badge.milestone-funded")).toHaveText("Pago e retido");
    await marina.goto("/financeiro");
    await expect(marina.locator(".figure").filter({ hasText: "Pago por Pix" })).toContainText(money("R$ 1.500,00"));

    // The merchant disputes the work; the operator splits: R$ 500,00 to the freelancer.
    await marina.goto(`/contracts/${id}`);
    await marina.locator("summary", { hasText: "Abrir uma disputa" }).click();
    await marina.getByLabel("A outra parte não responde").check();
    await marina.getByLabel("Sua declaração").fill("Só recebi um terço do combinado e ninguém responde.");
    await marina.getByRole("button", { name: "Abrir disputa" }).click();
    await expect(toast(marina, "Disputa aberta")).toBeVisible();

    await olga.goto("/admin/disputes");
    await olga.getByRole("link", { name: title }).click();
    await expect(olga.getByText(/R\$\s1\.500,00/).first()).toBeVisible();
    await olga.getByLabel("Dividir o valor: uma parte ao freelancer, o resto de volta ao contratante").check();
    await olga.getByLabel("Para o freelancer (R$)").fill("2.000,00");
    await olga.getByLabel("Motivo da decisão").fill("Um terço do trabalho foi entregue; o resto volta ao contratante.");
    await olga.getByRole("button", { name: "Registrar decisão" }).click();
    await expect(olga.getByText("O valor para o freelancer não pode passar do valor da etapa.")).toBeVisible();
    await expect(olga.getByLabel("Motivo da decisão")).toHaveValue(/^Um terço do trabalho/);
    await olga.getByLabel("Para o freelancer (R$)").fill("500,00");
    await olga.getByRole("button", { name: "Registrar decisão" }).click();
    await expect(toast(olga, "Decisão registrada")).toBeVisible();

    // The freelancer has the part less the 10% fee on it; the rest waits to go back.
    await julia.goto(`/contracts/${id}`);
    await expect(
      julia.getByRole("region", { name: "Disputa", exact: true }).getByText("Decisão: valor dividido entre as partes."),
    ).toBeVisible();
    await julia.goto("/financeiro");
    await expect(julia.locator(".figure").filter({ hasText: "Disponível para saque" })).toContainText(
      money("R$ 450,00"),
    );

    // The operator returns the rest to the merchant and records it.
    await olga.goto("/admin/payments");
    const refund = olga
      .getByRole("region", { name: /^Estornos para devolver/ })
      .locator(".queue-item")
      .filter({ hasText: merchant.email });
    await expect(refund).toContainText(money("R$ 1.000,00"));
    await refund.getByLabel("Identificador fim a fim (E2E)").fill(endToEndId(`${tag}`).replace(/^E1/, "E9"));
    await refund.getByRole("button", { name: "Registrar estorno" }).click();
    await expect(toast(olga, "Estorno registrado.")).toBeVisible();
    await expect(refund).toHaveCount(0);
    for (const page of [marina, julia, olga]) await page.context().close();
  });
}

test.describe("manual Pix, with JavaScript", () => {
  story(true);
});

test.describe("manual Pix, without JavaScript", () => {
  story(false);
});
