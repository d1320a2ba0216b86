import { expect, test } from "./fixtures";
import { apiToken, lastMail, noAxeFindings, registerViaApi, signIn, toast } from "./support";

// Deleting one's account from /account/security, with JavaScript (without it: the form as posted
// in tests/accounts/deletion-page.test.ts): while the contract
// runs the section says why not; once it is over, the form keeps the box ticked when
// refused, then deletes: signed out, home with the news, the goodbye e-mail at the
// old address, and the merchant still has the contract, under "Conta excluída". axe on the
// section in both languages.

test("a freelancer with a finished contract deletes the account", async ({ request, hired }) => {
  const { id } = hired;
  const merchant = hired.merchant.account;
  const freelancer = hired.freelancer.account;
  const julia = hired.freelancer.page;

  // While the contract runs, the reason instead of the form.
  await julia.goto("/account/security");
  const section = julia.getByRole("region", { name: "Excluir conta" });
  await expect(section).toContainText("enquanto houver um contrato em andamento");
  await expect(section.getByRole("button", { name: "Excluir minha conta" })).toHaveCount(0);

  const asFreelancer = await apiToken(request, freelancer.email, freelancer.password);
  const asMerchant = await apiToken(request, merchant.email, merchant.password);
  const delivered = await request.post(`/api/contracts/${id}/deliveries`, {
    headers: asFreelancer,
    multipart: { message: "Logotipo e paleta de cores finais." },
  });
  expect(delivered.status()).toBe(201);
  expect((await request.post(`/api/contracts/${id}/approve`, { headers: asMerchant })).status()).toBe(200);

  // Refused: the box not ticked, then a wrong password; the box stays ticked, the password goes.
  await julia.goto("/account/security");
  await section.getByLabel("Sua senha").fill(freelancer.password);
  await section.getByRole("button", { name: "Excluir minha conta" }).click();
  await expect(section.getByText("Marque a caixa para confirmar que entendeu o que acontece.")).toBeVisible();
  await section.getByLabel("Sua senha").fill("senha-errada-1");
  await section.getByLabel("Entendo que a exclusão é definitiva.").check();
  await section.getByRole("button", { name: "Excluir minha conta" }).click();
  await expect(section.getByText("Senha atual incorreta.")).toBeVisible();
  await expect(section.getByLabel("Entendo que a exclusão é definitiva.")).toBeChecked();
  await noAxeFindings(julia);

  await section.getByLabel("Sua senha").fill(freelancer.password);
  await section.getByRole("button", { name: "Excluir minha conta" }).click();
  await expect(toast(julia, "Sua conta foi excluída.")).toBeVisible();
  // Home, which sends a visitor on to the sign-in page.
  await expect(julia).toHaveURL(/\/login/);
  await julia.goto("/dashboard");
  await expect(julia).toHaveURL(/\/login/);
  const mail = await lastMail(request, freelancer.email, /sua conta foi excluída/);
  expect(mail.text).toContain("Sua conta no Freela foi excluída");
  expect(
    (await request.post("/api/login", { data: { email: freelancer.email, password: freelancer.password } })).status(),
  ).toBe(401);

  // The merchant still has the contract, with the other side anonymised.
  const marina = hired.merchant.page;
  await marina.goto(`/contracts/${id}`);
  await expect(
    marina
      .getByRole("main")
      .getByText(/com Conta excluída/)
      .first(),
  ).toBeVisible();
  await expect(marina.getByText("Julinha")).toHaveCount(0);
  await expect(marina.getByText("Logotipo e paleta de cores finais.")).toBeVisible();
});

for (const lng of ["pt-BR", "en"] as const) {
  test(`axe: the account deletion section, ${lng}`, async ({ browser, request }, testInfo) => {
    const account = await registerViaApi(request, { account_type: "merchant" });
    const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
    const page = await context.newPage();
    await signIn(page, account.email, account.password);
    if (lng !== "pt-BR") {
      const res = await page.request.post("/language", {
        form: { lng, redirectTo: "/" },
        headers: { Origin: new URL(testInfo.project.use.baseURL!).origin },
        maxRedirects: 0,
      });
      expect(res.status()).toBe(302);
    }
    await page.goto("/account/security");
    const name = lng === "en" ? "Delete account" : "Excluir conta";
    await expect(page.getByRole("region", { name })).toBeVisible();
    await noAxeFindings(page);
    await context.close();
  });
}
