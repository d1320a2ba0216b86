import { expect, test } from "./fixtures";
import { hireMonthly, noAxeFindings, toast, userPage } from "./support";

// A monthly contract as the two sides live it, with JavaScript and without (payments off, as
// "chromium"): a monthly proposal hired by the API, the contract page's retainer box with the
// month in progress, the month delivered and approved, a new monthly amount proposed through its
// confirmation step and accepted by the other side, and the contract ended from the next month
// through its confirmation step.

function story(javaScriptEnabled: boolean) {
  test(`monthly proposal → hire → month approved → ended from the next month (JS ${javaScriptEnabled ? "on" : "off"})`, async ({
    request,
    browser,
  }, testInfo) => {
    test.slow();
    const { merchant, asMerchant, asFreelancer, id } = await hireMonthly(request);

    const marina = await userPage(browser, testInfo, javaScriptEnabled, merchant);
    await marina.goto(`/contracts/${id}`);
    const box = marina.locator("section", { has: marina.getByRole("heading", { name: "Trabalho mensal" }) });
    await expect(box).toContainText("Até 12 posts por mês");
    await expect(box.locator(".badge")).toHaveText(["em andamento"]);
    if (javaScriptEnabled) await noAxeFindings(marina);

    // The month's work: delivered and approved, as any milestone.
    const delivered = await request.post(`/api/contracts/${id}/deliveries`, {
      headers: asFreelancer,
      data: { message: "Os posts do mês estão publicados e o relatório segue anexo." },
    });
    expect(delivered.status()).toBe(201);
    expect((await request.post(`/api/contracts/${id}/approve`, { headers: asMerchant })).status()).toBe(200);
    await marina.reload();
    await expect(box.locator(".badge")).toHaveText(["aprovado"]);

    // A new monthly amount: typed, confirmed on its step (what it settles), accepted by the other side.
    await box.getByText("Mudar o valor do mês").click();
    await box.getByLabel("Novo valor do mês (R$)").fill("2.000,00");
    await box.getByRole("button", { name: "Continuar" }).click();
    const proposal = marina.getByRole("alertdialog", { name: "Propor o novo valor do mês?" });
    await expect(proposal).toContainText("Novo valor do mês: R$ 2.000,00");
    await expect(proposal).toContainText("A partir de:");
    await expect(proposal.getByLabel("Novo valor do mês (R$)")).toHaveValue("2.000,00");
    if (javaScriptEnabled) await noAxeFindings(marina);
    await proposal.getByRole("button", { name: "Sim, propor" }).click();
    await expect(toast(marina, "Novo valor do mês proposto.")).toBeVisible();
    await expect(box).toContainText("Você propôs mudar o valor do mês para R$ 2.000,00");
    expect((await request.post(`/api/contracts/${id}/amount/accept`, { headers: asFreelancer })).status()).toBe(200);
    await marina.goto(`/contracts/${id}`);
    await expect(box.locator(".fact-strong")).toHaveText("R$ 2.000,00");
    await expect(box.getByText("Você propôs")).toHaveCount(0);

    // Ending from the next month: the confirmation step first, then the contract is completed.
    await box.getByRole("link", { name: "Encerrar a partir do próximo mês" }).click();
    const step = marina.getByRole("alertdialog", { name: "Encerrar este contrato mensal?" });
    await expect(step).toContainText("Nenhum mês novo começa");
    await step.getByRole("button", { name: "Sim, encerrar" }).click();
    await expect(toast(marina, "Contrato encerrado a partir do próximo mês.")).toBeVisible();
    await expect(box.getByRole("link", { name: "Encerrar a partir do próximo mês" })).toHaveCount(0);
    await expect(box).toContainText(/nenhum mês começa a partir de/);
  });
}

story(true);
story(false);
