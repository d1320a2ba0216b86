import { expect, test } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { registerViaApi, signIn, toast } from "./support";

// Two-factor sign-in in the browser: turning it on in
// /account/security (password, QR code and key, a confirming code, the recovery codes shown
// once), the second step of the login page (a wrong code keeps the step and the e-mail; a right
// one signs in and goes where the visitor was going), and turning it off with a recovery code.
// The forms as posted without JavaScript are tests/accounts/two-factor-page.test.ts's.

/** The code the authenticator app shows `steps` steps of 30 s from now. */
const codeOf = (secret: string, steps = 0) =>
  new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

test("turn on, sign in with the second step, turn off with a recovery code", async ({ page, browser }) => {
  const account = await registerViaApi(page.request, { account_type: "freelancer" });
  await signIn(page, account.email, account.password);
  await page.goto("/account/security");
  const section = page.getByRole("region", { name: /Verificação em duas etapas/ });
  await expect(section).toContainText("Desativada");
  // Four wrong codes follow, and an account's wrong passwords and codes count together (five
  // in 15 minutes): the wrong password of the set-up is tests/accounts/two-factor.api.test.ts's.
  await section.getByLabel("Senha").fill(account.password);
  await section.getByRole("button", { name: "Ativar" }).click();
  await expect(toast(page, /Leia o QR code/)).toBeVisible();
  await expect(section.getByRole("img", { name: "QR code para o aplicativo autenticador" })).toBeVisible();
  const secret = (await section.locator(".totp-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);

  await section.getByLabel("Código").fill("000000");
  await section.getByRole("button", { name: "Confirmar e ativar" }).click();
  await expect(section.getByText("Código incorreto ou já usado.")).toBeVisible();
  await section.getByLabel("Código").fill(codeOf(secret));
  await section.getByRole("button", { name: "Confirmar e ativar" }).click();
  const codes = page.locator("#recovery-codes li");
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.allTextContents()).map((c) => c.trim());
  await expect(section).toContainText("Ativada");
  // Shown once: a reload shows the state, not the codes.
  await page.goto("/account/security");
  await expect(page.locator("#recovery-codes")).toHaveCount(0);

  // Another browser signs in: password, then the code, on the same page.
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const other = await context.newPage();
  await other.goto("/login?redirectFrom=%2Fcontracts");
  await other.getByLabel("E-mail").fill(account.email);
  await other.getByLabel("Senha").fill(account.password);
  await other.getByRole("button", { name: "Entrar", exact: true }).click();
  await expect(other.getByText(`A conta ${account.email} usa verificação em duas etapas.`)).toBeVisible();
  await other.getByLabel("Código").fill("000000");
  await other.getByRole("button", { name: "Confirmar e entrar" }).click();
  await expect(other.getByText("Código incorreto ou já usado.").first()).toBeVisible();
  await expect(other.getByText(`A conta ${account.email} usa verificação em duas etapas.`)).toBeVisible();
  await other.getByLabel("Código").fill(codeOf(secret, 1));
  await other.getByRole("button", { name: "Confirmar e entrar" }).click();
  await expect(other).toHaveURL(/\/contracts$/);
  await context.close();

  // New recovery codes, with the password and a recovery code: shown once; the old ones stop working.
  const regenerate = page.locator("#recovery-regenerate");
  await regenerate.getByLabel("Senha").fill(account.password);
  await regenerate.getByLabel("Código").fill("000000");
  await regenerate.getByRole("button", { name: "Gerar novos códigos" }).click();
  await expect(page.locator("#recovery-regenerate").getByText("Código incorreto ou já usado.")).toBeVisible();
  await page.locator("#recovery-regenerate").getByLabel("Senha").fill(account.password);
  await page.locator("#recovery-regenerate").getByLabel("Código").fill(recovery[1]);
  await page.locator("#recovery-regenerate").getByRole("button", { name: "Gerar novos códigos" }).click();
  await expect(codes).toHaveCount(10);
  const fresh = (await codes.allTextContents()).map((c) => c.trim());
  expect(fresh).not.toContain(recovery[2]);

  // Off: the password and a recovery code (an old one is refused, a new one works).
  const section2 = page.getByRole("region", { name: /Verificação em duas etapas/ });
  const off = section2.locator("form:has(input[value=two_factor_disable])");
  await off.getByLabel("Senha").fill(account.password);
  await off.getByLabel("Código").fill(recovery[2]);
  await off.getByRole("button", { name: "Desativar" }).click();
  await expect(section2.getByText("Código incorreto ou já usado.")).toBeVisible();
  await off.getByLabel("Senha").fill(account.password);
  await off.getByLabel("Código").fill(fresh[0]);
  await off.getByRole("button", { name: "Desativar" }).click();
  await expect(toast(page, "Verificação em duas etapas desativada.")).toBeVisible();
  await expect(page.getByRole("region", { name: /Verificação em duas etapas/ })).toContainText("Desativada");
});
