import { expect, test } from "./fixtures";
import { E2E_PAYMENTS, E2E_PIX_AUTOMATICO_PORT } from "../../playwright.config";
import { startPixAutomatico, type PixAutomaticoMock } from "../payments/pix-automatico-server";
import { hireMonthly, identityViaApi, money, noAxeFindings, toast, userPage } from "./support";

// A monthly contract paid by Pix Automático (project "chromium-payments": payments on, the API Pix
// answered by a local stand-in on PORT+10): the merchant authorises it on the contract page
// through its confirmation step and gets the "copia e cola" for their bank; the bank approves (the
// stand-in's signed webhook); the schedule asks for the month's charge, the bank debits it (the
// webhook again) and the month is funded; the freelancer delivers, the merchant approves on the
// page, and the month's money is released: the freelancer's balance shows it less the fee.

let pix: PixAutomaticoMock | undefined;
test.beforeAll(async () => {
  pix = await startPixAutomatico({
    token: E2E_PAYMENTS.PIX_AUTOMATICO_TOKEN,
    secret: E2E_PAYMENTS.PIX_AUTOMATICO_WEBHOOK_SECRET,
    port: E2E_PIX_AUTOMATICO_PORT,
  });
});
test.afterAll(() => pix?.close());

test("monthly contract → Pix Automático authorised → bank approves → month debited and funded → delivered → approved → released", async ({
  request,
  browser,
}, testInfo) => {
  test.slow();
  const { merchant, freelancer, asFreelancer, id } = await hireMonthly(request);
  // The payer's CPF goes into the recurrence: recorded first.
  await identityViaApi(request, merchant);

  // The merchant authorises it on the page, through its confirmation step.
  const marina = await userPage(browser, testInfo, true, merchant);
  await marina.goto(`/contracts/${id}`);
  const box = marina.locator("#recurrence");
  const months = marina.locator("#retainer");
  await expect(months.locator(".badge")).toHaveText(["aguardando pagamento"]);
  await box.getByRole("link", { name: "Autorizar Pix Automático" }).click();
  const step = marina.getByRole("alertdialog", { name: "Autorizar o Pix Automático deste contrato?" });
  await step.getByRole("button", { name: "Sim, autorizar" }).click();
  await expect(toast(marina, "Pix Automático pedido: aprove no app do seu banco.")).toBeVisible();
  await expect(box.locator(".badge")).toHaveText("aguardando o banco");
  await expect(box).toContainText(money("R$ 1.800,00 por mês"));
  await expect(box.getByLabel("Código copia e cola da autorização")).toHaveValue(/^000201/);
  await noAxeFindings(marina);

  // The merchant's bank approves the recurrence: the stand-in's signed notification.
  const rec = [...pix!.recs.values()].at(-1)!;
  expect(rec.valor.valorRec).toBe("1800.00");
  const base = testInfo.project.use.baseURL!;
  expect(await pix!.deliver(base, pix!.approve(rec.idRec))).toMatchObject({ status: 200 });
  // The schedule (every 2 s on this server) asks for the month's charge against it.
  await expect.poll(() => [...pix!.cobrs.values()].find((c) => c.idRec === rec.idRec)?.status).toBe("ATIVA");
  await marina.reload();
  await expect(box.locator(".badge")).toHaveText("ativo");
  await expect(box).toContainText("O mês que aguarda pagamento está agendado no Pix Automático do seu banco.");
  await expect(box.getByLabel("Código copia e cola da autorização")).toHaveCount(0);
  await noAxeFindings(marina);

  // The bank debits the month: it is funded, and the freelancer's month starts.
  const charge = [...pix!.cobrs.values()].find((c) => c.idRec === rec.idRec)!;
  expect(charge.valor.original).toBe("1800.00");
  expect(await pix!.deliver(base, pix!.settle(charge.txid))).toMatchObject({ status: 200 });
  await marina.reload();
  await expect(months.locator(".badge")).toHaveText(["em andamento"]);
  await expect(marina.locator(".badge.milestone-funded")).toHaveText("Pago e retido");

  // Delivered (by the API: this story is about the money), approved on the page: released.
  const delivered = await request.post(`/api/contracts/${id}/deliveries`, {
    headers: asFreelancer,
    data: { message: "Os posts do mês estão publicados e o relatório segue anexo." },
  });
  expect(delivered.status()).toBe(201);
  await marina.reload();
  await marina.getByRole("link", { name: money("Aprovar entrega (R$ 1.800,00)") }).click();
  const approval = marina.getByRole("alertdialog", { name: "Aprovar esta entrega?" });
  await expect(approval).toContainText(money("recebe R$ 1.620,00 (taxa de 10%)"));
  await approval.getByRole("button", { name: /^Sim, aprovar/ }).click();
  await expect(toast(marina, money("R$ 1.800,00 liberados"))).toBeVisible();
  await expect(months.locator(".badge")).toHaveText(["aprovado"]);
  await expect(marina.locator(".badge.milestone-released")).toHaveText("Liberado");

  // The freelancer's balance: the month less the 10% fee.
  const julia = await userPage(browser, testInfo, true, freelancer);
  await julia.goto("/financeiro");
  await expect(julia.locator(".figure").filter({ hasText: "Disponível para saque" })).toContainText(
    money("R$ 1.620,00"),
  );
});
