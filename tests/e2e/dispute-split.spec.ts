import { expect, test } from "./fixtures";
import { endToEndId, fund, hire, money, noAxeFindings, OPERATOR, toast, userPage } from "./support";

// A dispute decided by splitting the held money, with JavaScript and without, on the manual
// provider's server (project "chromium-pix-manual"): the milestone is funded through the API (the
// merchant's charge, the operator's confirmation of the receipt; payments.spec.ts walks that part
// in the browser), the merchant opens a dispute, the operator gives a part to the freelancer (a
// part above the held amount is refused with what was typed kept), the freelancer's balance has
// that part less the fee on it only, and the rest waits in the refunds queue until the operator
// records its return.

function story(javaScriptEnabled: boolean) {
  test("funded milestone → dispute → split: a part released less its fee, the rest refunded", async ({
    request,
    browser,
  }, testInfo) => {
    test.setTimeout(180_000);
    const { merchant, freelancer, id, title } = await hire(request);
    await fund(request, id, merchant);
    const marina = await userPage(browser, testInfo, javaScriptEnabled, merchant);
    const julia = await userPage(browser, testInfo, javaScriptEnabled, freelancer);
    const olga = await userPage(browser, testInfo, javaScriptEnabled, OPERATOR);
    const tag = javaScriptEnabled ? "J" : "N";

    await julia.goto(`/contracts/${id}`);
    await expect(julia.locator(".badge.milestone-funded")).toHaveText("Pago e retido");

    // The merchant disputes the work; the operator splits: R$ 500,00 to the freelancer.
    await marina.goto(`/contracts/${id}`);
    await marina.locator("summary", { hasText: "Abrir uma disputa" }).click();
    await marina.getByLabel("A outra parte não responde").check();
    await marina.getByLabel("Sua declaração").fill("Só recebi um terço do combinado e ninguém responde.");
    await marina.getByRole("button", { name: "Abrir disputa" }).click();
    await marina.getByRole("button", { name: "Sim, abrir a disputa" }).click();
    await expect(toast(marina, "Disputa aberta")).toBeVisible();

    await olga.goto("/admin/disputes");
    await olga.getByRole("link", { name: title }).click();
    if (javaScriptEnabled) await noAxeFindings(olga);
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

// With JavaScript only: the dispute family's story without it is disputes.spec.ts; the split
// typed in reais and refused with what was typed kept, without JavaScript, is the console form's
// test in tests/operator/dispute-money.test.ts, and the refund recorded from the payments desk's
// form, in tests/operator/payments.api.test.ts (both engines).
test.describe("dispute split, with JavaScript", () => {
  story(true);
});
