import { generateCpf } from "@brazilian-utils/brazilian-utils";
import { expect, test } from "./fixtures";
import { apiToken, endToEndId, hire, money, noAxeFindings, OPERATOR, PNG_1X1, toast, userPage } from "./support";

// Who is who, as the freelancer and the operator live it (docs/product.md, "Identidade"): the
// released money waits in the balance until the identity is verified; the freelancer types who
// they are and sends the photos; the operator compares them side by side and approves; the
// profile shows "Identidade verificada"; the payout goes to a key of the verified CPF. On the
// manual-Pix payments server (project "chromium-pix-manual"). The no-JS posts of the same forms
// are in tests/accounts/identity.api.test.ts.

test("send documents → operator approves → badge → payout", async ({ request, browser }, testInfo) => {
  test.slow();
  const { merchant, freelancer, id } = await hire(request);
  const asMerchant = await apiToken(request, merchant.email, merchant.password);
  const asFreelancer = await apiToken(request, freelancer.email, freelancer.password);
  const operator = await apiToken(request, OPERATOR.email, OPERATOR.password);
  const charge = (await (await request.post(`/api/contracts/${id}/charges`, { headers: asMerchant })).json()).data;
  const confirmed = await request.post(`/api/admin/payments/charges/${charge.id}/confirm`, {
    headers: operator,
    data: { e2e_id: endToEndId("I"), amount_cents: charge.amount_cents },
  });
  expect(confirmed.status()).toBe(200);
  const delivered = await request.post(`/api/contracts/${id}/deliveries`, {
    headers: asFreelancer,
    multipart: { message: "Logotipo e paleta de cores finais." },
  });
  expect(delivered.status()).toBe(201);
  expect((await request.post(`/api/contracts/${id}/approve`, { headers: asMerchant })).status()).toBe(200);

  // The money waits: the balance says what to do.
  const julia = await userPage(browser, testInfo, true, freelancer);
  await julia.goto("/financeiro");
  await expect(julia.getByText("Seu saldo fica guardado até sua identidade ser verificada")).toBeVisible();
  await expect(julia.getByRole("button", { name: /Pedir repasse/ })).toBeDisabled();
  await julia.getByRole("link", { name: "Verificar minha identidade" }).click();

  // Who she is, then the photos.
  await expect(julia.getByRole("heading", { name: "Identidade", level: 1 })).toBeVisible();
  const cpf = generateCpf();
  await julia.getByLabel("CPF ou CNPJ").fill("123.456.789-00");
  await julia.getByLabel("Nome completo ou razão social").fill("Julinha Recebedora da Silva");
  await julia.getByLabel("Data de nascimento").fill("1990-05-17");
  await julia.getByRole("button", { name: "Salvar dados" }).click();
  await expect(julia.locator(".field-error").first()).toContainText("Informe um CPF válido.");
  await julia.getByLabel("CPF ou CNPJ").fill(cpf);
  await julia.getByRole("button", { name: "Salvar dados" }).click();
  await expect(toast(julia, "Dados de identidade salvos.")).toBeVisible();
  await julia.getByLabel("Documento", { exact: true }).selectOption("cnh");
  for (const label of ["Frente do documento", "Verso do documento", "Selfie segurando o documento"]) {
    await julia.getByLabel(label).setInputFiles({ name: "foto.png", mimeType: "image/png", buffer: PNG_1X1 });
  }
  await julia.getByRole("button", { name: "Enviar para conferência" }).click();
  await expect(toast(julia, "Documentos enviados para conferência.")).toBeVisible();
  await expect(julia.getByText("Documentos enviados: um operador vai conferir.")).toBeVisible();
  await noAxeFindings(julia);

  // The operator: the typed data beside the photos; approves.
  const queue = (await (await request.get("/api/admin/identity", { headers: operator })).json()).data;
  const juliaId = queue.find((i: { email: string }) => i.email === freelancer.email).user_id;
  const olga = await userPage(browser, testInfo, true, OPERATOR);
  await olga.goto("/admin/identity");
  const item = olga.locator(".queue-item").filter({ hasText: freelancer.email });
  await expect(item).toContainText(cpf);
  await expect(item.getByRole("img", { name: "Selfie segurando o documento" })).toBeVisible();
  await noAxeFindings(olga);
  await item.getByRole("button", { name: "Aprovar identidade" }).click();
  await expect(toast(olga, "Identidade aprovada.")).toBeVisible();
  await expect(olga.locator(".queue-item").filter({ hasText: freelancer.email })).toHaveCount(0);
  // Her page in the console: verified, when, and the document only masked.
  await olga.goto(`/admin/users/${juliaId}`);
  const identity = olga.getByRole("region", { name: "Identidade", exact: true });
  await expect(identity).toContainText("Verificada");
  await expect(identity).toContainText(`•••.•••.${cpf.slice(6, 9)}-${cpf.slice(9)}`);
  await expect(olga.locator("body")).not.toContainText(cpf);
  await noAxeFindings(olga);

  // The badge, and the document nowhere on the profile.
  const marina = await userPage(browser, testInfo, true, merchant);
  await marina.goto(`/freelancers/${juliaId}`);
  await expect(marina.getByText("Identidade verificada")).toBeVisible();
  await expect(marina.locator("body")).not.toContainText(cpf);

  // The payout, to a key of the verified CPF.
  await julia.goto("/financeiro");
  await julia.getByLabel("Tipo da chave").selectOption("cpf");
  await julia.getByLabel("Chave Pix", { exact: true }).fill(cpf);
  await julia.getByLabel("Nome do titular").fill("Julinha Recebedora da Silva");
  await julia.getByLabel("CPF ou CNPJ do titular").fill(cpf);
  await julia.getByRole("button", { name: "Salvar chave" }).click();
  await expect(toast(julia, "Chave Pix salva.")).toBeVisible();
  await julia.getByRole("button", { name: /Pedir repasse de/ }).click();
  await julia
    .getByRole("alertdialog", { name: "Confirmar o pedido de repasse" })
    .getByRole("button", { name: /^Sim, pedir repasse de/ })
    .click();
  await expect(toast(julia, "Repasse pedido.")).toBeVisible();
  await expect(julia.locator(".figure").filter({ hasText: "Repasse em andamento" })).toContainText(
    money("R$ 1.350,00"),
  );
});
