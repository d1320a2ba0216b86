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

// The public profile's address on one's own profile: with JavaScript, a button copies it (no share
// sheet in the browser) or opens the system's share sheet (where there is one); without, the
// address stays a field to select and a link, and no button that would do nothing.
test.describe("the public profile's link", () => {
  const SLUGGED = /\/perfil\/[a-z0-9-]+-[0-9a-f-]{36}$/;

  test("no share sheet: 'Copiar o link' puts the APP_URL address on the clipboard and says 'Copiado'", async ({
    freelancer: { page },
  }, testInfo) => {
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.addInitScript(() => {
      delete (Navigator.prototype as Partial<Navigator>).share;
    });
    await page.goto("/profile");
    const card = page.getByRole("region", { name: "Compartilhar seu perfil" });
    const url = await card.getByLabel("Link do seu perfil público").inputValue();
    expect(url.startsWith(`${testInfo.project.use.baseURL}/perfil/`)).toBe(true);
    expect(url).toMatch(SLUGGED);
    await expect(card.getByRole("button", { name: "Compartilhar" })).toHaveCount(0);
    await card.getByRole("button", { name: "Copiar o link" }).click();
    await expect(card.getByRole("button", { name: "Copiado" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await noAxeFindings(page);
  });

  test("a share sheet: 'Compartilhar' hands it the same address", async ({ freelancer: { page } }) => {
    await page.addInitScript(() => {
      const shared: ShareData[] = [];
      Object.assign(window, { shared });
      Object.defineProperty(Navigator.prototype, "share", {
        configurable: true,
        value: (data: ShareData) => (shared.push(data), Promise.resolve()),
      });
    });
    await page.goto("/profile");
    const card = page.getByRole("region", { name: "Compartilhar seu perfil" });
    const url = await card.getByLabel("Link do seu perfil público").inputValue();
    await card.getByRole("button", { name: "Compartilhar" }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { shared: ShareData[] }).shared))
      .toEqual([{ url, title: "Compartilhar seu perfil" }]);
    await expect(card.getByRole("button", { name: "Copiar o link" })).toHaveCount(0);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the address as a field and a link to open, no button", async ({ freelancer: { page, account } }) => {
      await page.goto("/profile");
      const card = page.getByRole("region", { name: "Compartilhar seu perfil" });
      const url = await card.getByLabel("Link do seu perfil público").inputValue();
      expect(url).toMatch(SLUGGED);
      await expect(card.getByRole("button")).toHaveCount(0);
      await card.getByRole("link", { name: "Abrir o perfil público" }).click();
      await expect(page).toHaveURL(url);
      await expect(page.getByRole("heading", { level: 1, name: account.full_name })).toBeVisible();
    });
  });
});
