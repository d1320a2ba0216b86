import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { registerViaApi, signIn, toast } from "./support";

// Passkeys in the browser, with Chromium's virtual authenticator (CDP WebAuthn domain: CTAP2, an
// internal transport, resident keys, user verification that succeeds): add a passkey in the
// security settings, sign out, sign in with it from the login page (no e-mail, no password), see
// its last use, remove it. Without JavaScript the pages say passkeys need it (tests/e2e/accounts.spec.ts's
// story without JavaScript), and removing one is a plain form (tests/accounts/passkeys-page.test.ts). axe on the security page with a passkey listed, in both languages.

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];
const AXE_RULES = { "label-content-name-mismatch": { enabled: true } };

/** A virtual platform authenticator in the page's browser, as a phone or laptop has. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
  };
}

async function axe(page: Page) {
  const results = await new AxeBuilder({ page })
    .options({ rules: AXE_RULES, resultTypes: ["violations"] })
    .withTags(AXE_TAGS)
    .analyze();
  return results.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")} (${v.help})`));
}

test("add a passkey, sign out, sign in with it, remove it", async ({ page }) => {
  const account = await registerViaApi(page.request, { account_type: "freelancer" });
  const authenticator = await virtualAuthenticator(page);
  await signIn(page, account.email, account.password);
  await page.goto("/account/security");
  const section = page.getByRole("region", { name: "Chaves de acesso (passkeys)" });
  await expect(section).toContainText("Você ainda não tem chaves de acesso.");
  await section.getByLabel("Nome da chave (opcional)").fill("Notebook de teste");
  // A fresh proof: the session alone does not add a way in.
  await section.getByLabel("Senha atual").fill(account.password);
  await section.getByRole("button", { name: "Adicionar chave de acesso" }).click();
  await expect(toast(page, "Chave de acesso adicionada.")).toBeVisible();
  const item = section.getByRole("listitem").filter({ hasText: "Notebook de teste" });
  await expect(item).toContainText("nunca usada");
  expect(await authenticator.credentials()).toHaveLength(1);
  expect((await authenticator.credentials())[0].isResidentCredential).toBe(true);

  // axe with a passkey listed, in both languages.
  expect(await axe(page)).toEqual([]);
  const english = await page.request.post("/language", {
    form: { lng: "en", redirectTo: "/account/security" },
    headers: { Origin: new URL(test.info().project.use.baseURL!).origin },
    maxRedirects: 0,
  });
  expect(english.status()).toBe(302);
  await page.goto("/account/security");
  await expect(page.getByRole("region", { name: "Passkeys" })).toContainText("Notebook de teste");
  expect(await axe(page)).toEqual([]);
  await page.request.post("/language", {
    form: { lng: "pt-BR", redirectTo: "/" },
    headers: { Origin: new URL(test.info().project.use.baseURL!).origin },
    maxRedirects: 0,
  });

  // Sign out, then in again with the passkey alone: where the visitor was going.
  await page.context().clearCookies();
  await page.goto("/login?redirectFrom=%2Faccount%2Fsecurity");
  await page.getByRole("button", { name: "Entrar com chave de acesso" }).click();
  await expect(page).toHaveURL(/\/account\/security$/);
  await expect(toast(page, /Bem-vindo|Boas-vindas|Olá/)).toBeVisible();
  const again = page.getByRole("region", { name: "Chaves de acesso (passkeys)" });
  await expect(again.getByRole("listitem").filter({ hasText: "Notebook de teste" })).not.toContainText("nunca usada");

  // Removed: gone from the list; the authenticator's copy no longer signs in.
  await again.getByRole("button", { name: "Remover a chave de acesso Notebook de teste" }).click();
  await expect(toast(page, "Chave de acesso removida.")).toBeVisible();
  await expect(again).toContainText("Você ainda não tem chaves de acesso.");
  await page.context().clearCookies();
  await page.goto("/login");
  await page.getByRole("button", { name: "Entrar com chave de acesso" }).click();
  await expect(
    page.getByText("Esta chave de acesso não está cadastrada no Freela. Entre com sua senha."),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test("axe on the login page with the passkey button, in both languages", async ({ page }) => {
  for (const lng of ["pt-BR", "en"]) {
    await page.request.post("/language", {
      form: { lng, redirectTo: "/login" },
      headers: { Origin: new URL(test.info().project.use.baseURL!).origin },
      maxRedirects: 0,
    });
    await page.goto("/login");
    await expect(
      page.getByRole("button", { name: lng === "en" ? "Sign in with a passkey" : "Entrar com chave de acesso" }),
    ).toBeVisible();
    expect(await axe(page)).toEqual([]);
  }
});
