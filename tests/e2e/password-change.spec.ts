import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { registerViaApi, signIn, toast } from "./support";

// Changing the password in /account/security, with JavaScript (without it: tests/accounts/security-page.test.ts): a wrong current
// password is refused on the form (axe on the refused form), a right one changes it, the other
// browser's session ends and this one goes on; the new password signs in.

// Without JavaScript: the security page's forms posted in tests/accounts/security-page.test.ts.

test("changes the password and ends the other sessions", async ({ page, browser }) => {
  const account = await registerViaApi(page.request, { account_type: "freelancer" });
  const baseURL = test.info().project.use.baseURL;
  const otherContext = await browser.newContext({ baseURL });
  const other = await otherContext.newPage();
  await signIn(other, account.email, account.password);
  await signIn(page, account.email, account.password);

  await page.goto("/account/security");
  const section = page.getByRole("region", { name: "Senha", exact: true });
  await section.getByLabel("Senha atual").fill("senha-errada-1");
  await section.getByLabel("Nova senha").fill("nova-senha-segura");
  await section.getByRole("button", { name: "Trocar senha" }).click();
  await expect(section.getByText("Senha atual incorreta.")).toBeVisible();
  // axe needs the page's script to run: checked with JavaScript on.
  const results = await new AxeBuilder({ page })
    .options({ rules: { "label-content-name-mismatch": { enabled: true } }, resultTypes: ["violations"] })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`)).toEqual([]);

  await section.getByLabel("Senha atual").fill(account.password);
  await section.getByLabel("Nova senha").fill("nova-senha-segura");
  await section.getByRole("button", { name: "Trocar senha" }).click();
  await expect(toast(page, "Senha trocada. As outras sessões da conta foram encerradas.")).toBeVisible();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);

  await other.goto("/dashboard");
  await expect(other).toHaveURL(/\/login/);
  await otherContext.close();
  const fresh = await page.request.post("/api/login", {
    data: { email: account.email, password: "nova-senha-segura" },
  });
  expect(fresh.status()).toBe(200);
});
