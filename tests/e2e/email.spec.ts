import { createHmac } from "node:crypto";
import { expect, test, type APIRequestContext, type Browser, type TestInfo } from "@playwright/test";
import { E2E_EMAIL_WEBHOOK_SECRET } from "../../playwright.config";
import { OPERATOR, registerViaApi, signIn, userPage } from "./support";

// E-mail preferences: the settings form with JavaScript on and off, and the unsubscribe link of
// an e-mail opened signed out (its token signed with the server's SESSION_SECRET, which the
// e2e servers share with this file through playwright.config.ts).

const SESSION_SECRET = "e2e-secret-0123456789abcdef0123456789abcdef";

function unsubscribeToken(userId: string, kind: string) {
  const sig = createHmac("sha256", SESSION_SECRET).update(`unsubscribe\n${userId}\n${kind}`).digest("base64url");
  return `${userId}.${kind}.${sig}`;
}

async function account(request: APIRequestContext) {
  const user = await registerViaApi(request, { account_type: "freelancer", display_name: "Julinha" });
  const login = await (await request.post("/api/login", { data: user })).json();
  const headers = { Authorization: `Bearer ${login.access_token}` };
  const profile = await (await request.get("/api/profile", { headers })).json();
  return { ...user, id: profile.user.id as string, headers };
}

async function newPage(browser: Browser, testInfo: TestInfo, javaScriptEnabled: boolean) {
  const { baseURL, locale, timezoneId } = testInfo.project.use;
  return (await browser.newContext({ baseURL, locale, timezoneId, javaScriptEnabled })).newPage();
}

for (const javaScriptEnabled of [true, false]) {
  test(`e-mail settings ${javaScriptEnabled ? "with" : "without"} JavaScript`, async ({
    request,
    browser,
  }, testInfo) => {
    const user = await account(request);
    const page = await newPage(browser, testInfo, javaScriptEnabled);
    await signIn(page, user.email, user.password);
    await page.goto("/pages/profile-setting");
    const section = page.locator("section#email");
    await expect(section.getByRole("heading", { name: "Notificações por e-mail" })).toBeVisible();
    await expect(section.getByRole("table", { name: "Mensagens" })).toBeVisible();
    const messages = section.getByRole("checkbox", { name: /Novas mensagens/ });
    const overdue = section.getByRole("checkbox", { name: "Prazo de entrega vencido" });
    await expect(messages).toBeChecked();
    await messages.uncheck();
    await overdue.uncheck();
    await section.getByLabel("Idioma dos e-mails").selectOption("en");
    await section.getByRole("button", { name: "Salvar preferências de e-mail" }).click();
    await expect(page.getByText("Preferências de e-mail salvas.")).toBeVisible();
    await expect(messages).not.toBeChecked();
    await expect(overdue).not.toBeChecked();
    await expect(section.getByRole("checkbox", { name: "Contraproposta recebida" })).toBeChecked();
    await expect(section.getByLabel("Idioma dos e-mails")).toHaveValue("en");

    const settings = (await (await request.get("/api/notification-settings", { headers: user.headers })).json())
      .settings;
    expect(settings).toMatchObject({
      locale: "en",
      kinds: { message_received: false, contract_overdue: false, offer_received: true },
    });
    await page.context().close();
  });
}

test("the unsubscribe link of an e-mail works signed out, and a tampered one says so", async ({
  request,
  browser,
}, testInfo) => {
  const user = await account(request);
  const page = await newPage(browser, testInfo, true);
  const token = unsubscribeToken(user.id, "offer_received");
  await page.goto(`/unsubscribe/${token}`);
  await expect(page.getByText("Deixar de receber e-mails de “Contraproposta recebida”?")).toBeVisible();
  await page.getByRole("button", { name: "Cancelar estes e-mails" }).click();
  await expect(page.getByText("Pronto: você não receberá mais e-mails de “Contraproposta recebida”.")).toBeVisible();
  await page.goto(`/unsubscribe/${token}`);
  await expect(page.getByText("Você já não recebe e-mails de “Contraproposta recebida”.")).toBeVisible();
  const settings = (await (await request.get("/api/notification-settings", { headers: user.headers })).json()).settings;
  expect(settings.kinds).toMatchObject({ offer_received: false, message_received: true });

  // A mail program's own button (RFC 8058): a POST with no page and no cookie.
  const other = unsubscribeToken(user.id, "message_received");
  const oneClick = await request.post(`/unsubscribe/${other}`, { form: { "List-Unsubscribe": "One-Click" } });
  expect(oneClick.status()).toBe(200);

  const tampered = await page.goto(
    `/unsubscribe/${unsubscribeToken(user.id, "offer_received").replace("offer_received", "contract_overdue")}`,
  );
  expect(tampered?.status()).toBe(400);
  await expect(page.getByRole("heading", { name: "Link inválido" })).toBeVisible();
  await expect(page.getByText(/Este link para cancelar e-mails é inválido ou foi alterado/)).toBeVisible();
  await page.context().close();
});

test.describe("e-mail settings offer one Portuguese and each side its own kinds", () => {
  // Without JavaScript: the forms posted in tests/messaging/email.api.test.ts.
  test("merchant and freelancer", async ({ request, browser }, testInfo) => {
    const own = { merchant: "Nova candidatura numa oportunidade sua", freelancer: "Convite para uma oportunidade" };
    const kind = { merchant: "application_received", freelancer: "invitation_received" };
    for (const [role, other] of [
      ["merchant", "freelancer"],
      ["freelancer", "merchant"],
    ] as const) {
      const who = await registerViaApi(request, { account_type: role });
      const page = await userPage(browser, testInfo, true, who);
      await page.goto("/pages/profile-setting#email");
      const form = page.locator("#email-settings-form");
      const language = form.getByLabel("Idioma dos e-mails");
      await expect(language.locator("option")).toHaveText(["Português (Brasil)", "English", "Español"]);
      await expect(language).toHaveValue("pt-BR");
      await expect(form.getByLabel(own[role])).toBeChecked();
      await expect(form.getByLabel(own[other])).toHaveCount(0);
      // Saved without one of its kinds and in English, the form shows what was saved.
      await form.getByLabel(own[role]).uncheck();
      await language.selectOption("en");
      await form.getByRole("button", { name: "Salvar preferências de e-mail" }).click();
      await expect(page.getByRole("status").filter({ hasText: /prefer/i })).toBeVisible();
      await page.goto("/pages/profile-setting#email");
      await expect(page.locator("#email-settings-form select[name=locale]")).toHaveValue("en");
      await expect(page.locator(`#email-settings-form input[name=kinds][value=${kind[role]}]`)).not.toBeChecked();
      await page.context().close();
    }
  });
});

test("an address that bounces: the person is told, the operator lets it receive e-mail again (without JavaScript)", async ({
  request,
  browser,
}, testInfo) => {
  const user = await account(request);
  const member = await userPage(browser, testInfo, true, user);
  await member.goto("/dashboard");
  const banner = member.getByRole("region", { name: "Trocar o e-mail" });
  await expect(banner).toHaveCount(0);

  // The e-mail provider reports a hard bounce through the generic webhook, signed.
  const body = JSON.stringify({
    id: `e2e-${user.id}`,
    type: "bounce",
    email: user.email,
    detail: "550 5.1.1 no such user",
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac("sha256", E2E_EMAIL_WEBHOOK_SECRET).update(`${timestamp}.${body}`).digest("hex");
  const hook = await request.post("/api/webhooks/email/generic", {
    data: body,
    headers: {
      "Content-Type": "application/json",
      "X-Freela-Timestamp": timestamp,
      "X-Freela-Signature": `sha256=${signature}`,
    },
  });
  expect(await hook.json()).toEqual({ received: true, outcome: "suppressed" });

  await member.reload();
  await expect(banner).toContainText(`Os e-mails para ${user.email} estão voltando`);
  await expect(banner.getByRole("link", { name: "Trocar o e-mail" })).toHaveAttribute(
    "href",
    "/account/security#email",
  );

  const operator = await userPage(browser, testInfo, false, OPERATOR);
  await operator.goto(`/admin/emails?q=${encodeURIComponent(user.email)}`);
  const row = operator.getByRole("row", { name: new RegExp(user.email) });
  await expect(row).toContainText("550 5.1.1 no such user");
  await row.getByRole("button", { name: `Liberar ${user.email}` }).click();
  await expect(operator.getByText("Nenhum endereço bloqueado.")).toBeVisible();

  await member.reload();
  await expect(banner).toHaveCount(0);
});
