import { expect, test } from "./fixtures";
import { apiToken, endToEndId, hire, identityViaApi, money, noAxeFindings, OPERATOR, toast, userPage } from "./support";

// A hire split into milestones and paid by the manual Pix provider (project chromium-pix-manual),
// with JavaScript: the split form grows row by row with its running total and the difference
// from the contract's value, the payer says "Já paguei" and waits for the operator, whose overview
// counts it; the operator confirms, the work is delivered and approved, and the freelancer's
// payout goes through its confirmation step (the masked key and when it is paid).

test("split rows with a running total → Já paguei → the operator's count → payout confirmation", async ({
  request,
  browser,
}, testInfo) => {
  test.slow();
  const { merchant, freelancer, id } = await hire(request);
  const marina = await userPage(browser, testInfo, true, merchant);
  const julia = await userPage(browser, testInfo, true, freelancer);

  // R$ 1.500,00 in two milestones; a third row added, left blank.
  await marina.goto(`/contracts/${id}`);
  await marina.locator("summary", { hasText: "Dividir em etapas" }).click();
  const total = marina.locator(".split-total");
  await expect(total).toContainText(money("Faltam R$ 1.500,00"));
  await marina.locator("#split-title-0").fill("Logotipo");
  await marina.locator("#split-amount-0").fill("1.000,00");
  await marina.locator("#split-days-0").fill("5");
  await expect(total).toContainText(money("Soma das etapas: R$ 1.000,00 de R$ 1.500,00. Faltam R$ 500,00."));
  await marina.getByRole("button", { name: "+ Adicionar etapa" }).click();
  await expect(marina.getByRole("group", { name: "Etapa 3" })).toBeVisible();
  // What was typed stays.
  await expect(marina.locator("#split-amount-0")).toHaveValue("1.000,00");
  await marina.locator("#split-title-1").fill("Papelaria");
  await marina.locator("#split-amount-1").fill("600");
  await expect(total).toContainText(money("Passa R$ 100,00 do valor do contrato."));
  await marina.locator("#split-amount-1").fill("500");
  await expect(total).toContainText("Bate com o valor do contrato.");
  await marina.locator("#split-days-1").fill("3");
  await expect(marina.getByRole("button", { name: "Recalcular" })).toHaveCount(0);
  await noAxeFindings(marina);
  await marina.getByRole("button", { name: "Salvar etapas" }).click();
  await expect(toast(marina, "Etapas salvas.")).toBeVisible();

  // The first milestone's Pix: the payer says it was paid and waits for the operator.
  await marina.getByRole("button", { name: "Pagar R$ 1.000,00 com Pix" }).click();
  await expect(marina.getByRole("img", { name: "QR Code Pix de R$ 1.000,00" })).toBeVisible();
  await marina.getByRole("button", { name: "Já paguei" }).click();
  await expect(toast(marina, "Aviso registrado: aguardando a confirmação do Pix.")).toBeVisible();
  await expect(marina.getByText(/aguardando confirmação, normalmente em até 24 horas/)).toBeVisible();
  await expect(marina.getByRole("button", { name: "Já paguei" })).toHaveCount(0);
  await noAxeFindings(marina);
  await julia.goto(`/contracts/${id}`);
  await expect(julia.getByText(/O contratante avisou que pagou/)).toBeVisible();

  // The operator's overview counts it, with a link to the queue, where it is confirmed.
  const olga = await userPage(browser, testInfo, true, OPERATOR);
  await olga.goto("/admin");
  const claimed = olga.getByRole("link", { name: /Pix a confirmar \(o pagador diz que pagou\)/ });
  await expect(claimed).toHaveAttribute("href", "/admin/payments");
  await claimed.click();
  const receipt = olga.locator(".queue-item").filter({ hasText: merchant.email });
  await receipt.getByLabel("Identificador fim a fim (E2E)").fill(endToEndId("M"));
  await receipt.getByLabel("Valor recebido (R$)").fill("1.000,00");
  await receipt.getByRole("button", { name: "Confirmar recebimento" }).click();
  await expect(toast(olga, "Recebimento confirmado.")).toBeVisible();

  // The delivery form names its milestone; delivered and approved by the API.
  await julia.goto(`/contracts/${id}`);
  await expect(julia.getByRole("heading", { name: "Entregar etapa 1 de 2: Logotipo" })).toBeVisible();
  await expect(julia.getByRole("link", { name: "Conversa com Marina" })).toHaveAttribute(
    "href",
    `/applications/${id}/messages`,
  );
  const asJulia = await apiToken(request, freelancer.email, freelancer.password);
  const asMarina = await apiToken(request, merchant.email, merchant.password);
  expect(
    (
      await request.post(`/api/contracts/${id}/deliveries`, {
        headers: asJulia,
        data: { message: "Seguem o logotipo e as variações." },
      })
    ).status(),
  ).toBe(201);
  expect((await request.post(`/api/contracts/${id}/approve`, { headers: asMarina })).status()).toBe(200);

  // The payout (to the verified person's own CPF): the first click shows where it goes and when;
  // the second asks for it.
  const cpf = await identityViaApi(request, freelancer, { verified: true });
  await julia.goto("/financeiro");
  await julia.getByLabel("Tipo da chave").selectOption("cpf");
  await julia.getByLabel("Chave Pix", { exact: true }).fill(cpf);
  await julia.getByLabel("Nome do titular").fill("Julinha Freelancer");
  await julia.getByLabel("CPF ou CNPJ do titular").fill(cpf);
  await julia.getByRole("button", { name: "Salvar chave" }).click();
  await expect(toast(julia, "Chave Pix salva.")).toBeVisible();
  await julia.getByRole("button", { name: "Pedir repasse de R$ 900,00" }).click();
  const step = julia.getByRole("alertdialog", { name: "Confirmar o pedido de repasse" });
  await expect(step).toContainText(money("Você pede o repasse de R$ 900,00"));
  await expect(step).toContainText(`Destino: chave Pix CPF …${cpf.slice(-4)}, em nome de Julinha Freelancer.`);
  await expect(step).toContainText("normalmente em até 24 horas");
  await noAxeFindings(julia);
  await step.getByRole("button", { name: "Sim, pedir repasse de R$ 900,00", exact: true }).click();
  await expect(toast(julia, "Repasse pedido.")).toBeVisible();
  await expect(julia.getByText("Seu repasse foi pedido e está esperando o pagamento pelo Freela.")).toBeVisible();
});
