import SQLite from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { E2E_DATABASE } from "../../playwright.config";
import { noAxeFindings, registerViaApi, signIn, toast } from "./support";

// The terms of use and the privacy policy, with JavaScript on and off: pages for anyone, linked
// from the registration form (creating the account accepts them), and an account on an older
// version sent to accept the current one before the page it opened, then brought back to it.

for (const javaScriptEnabled of [true, false]) {
  test.describe(`terms ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test("a visitor reads them from the registration form, in both languages", async ({ page }) => {
      await page.goto("/register");
      await expect(page.getByText("Ao criar a conta, você aceita os")).toBeVisible();
      await page.locator("#register-form").getByRole("link", { name: "Termos de uso" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Termos de uso" })).toBeVisible();
      await expect(page.getByText(/^Versão de \d{1,2} de \S+ de \d{4}$/)).toBeVisible();
      if (javaScriptEnabled) await noAxeFindings(page);
      await page.goto("/privacidade");
      await expect(page.getByRole("heading", { level: 1, name: "Política de privacidade" })).toBeVisible();
      await expect(page.getByRole("heading", { level: 2, name: "5. Seus direitos" })).toBeVisible();
      if (javaScriptEnabled) await noAxeFindings(page);
      await page.getByRole("button", { name: "EN", exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Privacy policy" })).toBeVisible();
      if (javaScriptEnabled) await noAxeFindings(page);
    });

    test("an account on an older version accepts the current one and goes on", async ({ page }, testInfo) => {
      // The browser server on SQLite: its database file is at hand to age the account's version.
      test.skip(testInfo.project.name !== "chromium", "writes the SQLite database of the chromium server");
      // Without JavaScript, the form's own fields are posted in tests/accounts/terms.test.ts ("ask an
      // account on an older version to accept before any page or API call, then let it go on").
      test.skip(!javaScriptEnabled, "the acceptance form without JavaScript is tested in Vitest");
      const account = await registerViaApi(page.request, { account_type: "freelancer" });
      const sqlite = new SQLite(E2E_DATABASE);
      try {
        sqlite.prepare("UPDATE users SET terms_version = '2020-01-01' WHERE email = ?").run(account.email);
      } finally {
        sqlite.close();
      }
      await signIn(page, account.email, account.password);
      await page.goto("/my-applications");
      await expect(page).toHaveURL(/\/termos\/aceitar\?redirectTo=%2Fmy-applications$/);
      await expect(page.getByRole("heading", { name: "Os termos mudaram" })).toBeVisible();
      if (javaScriptEnabled) await noAxeFindings(page);
      await page.getByRole("button", { name: "Aceitar e continuar" }).click();
      await expect(page.getByText("Marque que você leu e aceita os termos para continuar.")).toBeVisible();
      await page.getByLabel(/Li e aceito os Termos de uso/).check();
      await page.getByRole("button", { name: "Aceitar e continuar" }).click();
      await expect(toast(page, "Termos aceitos. Obrigado!")).toBeVisible();
      await expect(page).toHaveURL(/\/my-applications$/);
    });
  });
}
