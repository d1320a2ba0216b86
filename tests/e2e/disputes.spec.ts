import { expect, test } from "./fixtures";
import { noAxeFindings, OPERATOR, toast, userPage } from "./support";

// A dispute as people live it, with JavaScript and without: the merchant opens one on a contract
// in progress, the freelancer answers, the operator of the demo data decides in the console, and
// both sides see the decision on the contract. The console's dispute pages pass axe (checked
// with JavaScript on: axe runs in the page).

function story() {
  test("dispute opened → answered → decided → both sides see the decision", async ({
    hired,
    browser,
    javaScriptEnabled,
  }, testInfo) => {
    // Three people and two axe checks on a shared machine.
    test.setTimeout(180_000);
    const { id, title } = hired;
    const marina = hired.merchant.page;
    const julia = hired.freelancer.page;

    // The merchant opens a dispute from the contract's page.
    await marina.goto(`/contracts/${id}`);
    await marina.locator("summary", { hasText: "Abrir uma disputa" }).click();
    await marina.getByRole("button", { name: "Abrir disputa" }).click();
    await expect(marina.locator("#dispute-reason-error")).toHaveText("Escolha o motivo da disputa na lista.");
    await marina.getByLabel("A outra parte não responde").check();
    await marina.getByLabel("Sua declaração").fill("Ninguém responde há uma semana e o prazo está acabando.");
    await marina.getByRole("button", { name: "Abrir disputa" }).click();
    // A confirmation says what opening does before it is done.
    await expect(marina.getByRole("heading", { name: "Confirmar a abertura da disputa" })).toBeVisible();
    await marina.getByRole("button", { name: "Sim, abrir a disputa" }).click();
    await expect(toast(marina, "Disputa aberta")).toBeVisible();
    await expect(marina.getByText("Você abriu uma disputa (A outra parte não responde)")).toBeVisible();
    await expect(marina.getByRole("link", { name: "Enviar entrega" })).toHaveCount(0);

    // The freelancer sees it, with the deadline to answer, and answers.
    await julia.goto(`/contracts/${id}`);
    await expect(julia.getByText("A outra parte abriu uma disputa")).toBeVisible();
    await expect(julia.getByText(/Responda até/)).toBeVisible();
    await expect(julia.getByRole("button", { name: "Enviar entrega" })).toHaveCount(0);
    await julia.getByLabel("Acrescentar uma declaração").fill("Estive doente; o trabalho segue e entrego amanhã.");
    await julia.getByRole("button", { name: "Enviar declaração" }).click();
    await expect(toast(julia, "Declaração enviada.")).toBeVisible();
    await expect(julia.getByText(/Responda até/)).toHaveCount(0);

    // The operator finds it in the console's queue and decides.
    const olga = await userPage(browser, testInfo, javaScriptEnabled, OPERATOR);
    try {
      await olga.goto("/admin/disputes");
      if (javaScriptEnabled) await noAxeFindings(olga);
      await olga.getByRole("link", { name: title }).click();
      await expect(olga).toHaveURL(/\/admin\/disputes\/[0-9a-f-]{36}$/);
      await expect(olga.getByText("Ninguém responde há uma semana")).toBeVisible();
      await expect(olga.getByText("Estive doente")).toBeVisible();
      if (javaScriptEnabled) await noAxeFindings(olga);
      await olga.getByRole("button", { name: "Registrar decisão" }).click();
      await expect(olga.locator("#reason-error")).toBeVisible();
      await olga.getByLabel("Cancelar o contrato").check();
      await olga.getByLabel("Motivo da decisão").fill("O prazo venceu sem entrega e o contratante pediu o fim.");
      await olga.getByRole("button", { name: "Registrar decisão" }).click();
      await expect(toast(olga, "Decisão registrada")).toBeVisible();
      await expect(olga.getByRole("button", { name: "Registrar decisão" })).toHaveCount(0);
    } finally {
      await olga.context().close();
    }

    // Both sides see the decision and its reason; the contract is over.
    for (const page of [marina, julia]) {
      await page.goto(`/contracts/${id}`);
      const decision = page.getByRole("region", { name: "Disputa", exact: true });
      await expect(decision.getByText("Decisão: contrato cancelado.")).toBeVisible();
      await expect(decision.getByText("Motivo: O prazo venceu sem entrega")).toBeVisible();
      await expect(page.locator(".badge.contract-cancelled")).toHaveText("Cancelado");
    }
  });
}

test.describe("disputes, with JavaScript", () => {
  story();
});

test.describe("disputes, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  story();
});

// On a phone the dispute form is far down the contract's page: each submit lands where its answer
// is drawn (the form's error, then the confirmation), with JavaScript and without.
for (const javaScriptEnabled of [true, false]) {
  test.describe(`opening a dispute at 390 px, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ viewport: { width: 390, height: 800 }, javaScriptEnabled });

    test("the error and then the confirmation are on screen after each submit", async ({ hired }) => {
      const marina = hired.merchant.page;
      await marina.goto(`/contracts/${hired.id}`);
      await marina.locator("summary", { hasText: "Abrir uma disputa" }).click();
      await marina.getByRole("button", { name: "Abrir disputa" }).click();
      await expect(marina.locator("#dispute-reason-error")).toBeInViewport();
      await marina.getByLabel("A outra parte não responde").check();
      await marina.getByLabel("Sua declaração").fill("Ninguém responde há uma semana e o prazo está acabando.");
      await marina.getByRole("button", { name: "Abrir disputa" }).click();
      await expect(marina.getByRole("heading", { name: "Confirmar a abertura da disputa" })).toBeInViewport();
      await expect(marina.getByRole("button", { name: "Sim, abrir a disputa" })).toBeInViewport();
    });
  });
}
