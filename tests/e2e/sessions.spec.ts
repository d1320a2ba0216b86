import { expect, test, type APIRequestContext } from "@playwright/test";
import { lastMail, linkIn, registerViaApi, signIn, toast } from "./support";

// Sessions and sign-in notices in the browser, with JavaScript (the forms without it:
// tests/accounts/security-page.test.ts): the list on
// /account/security (device, the current one marked), ending another session and all others,
// and the link of the "novo acesso" e-mail, which ends the session it tells about.

const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

/** Signs the account in elsewhere, as an API client with this user agent; returns its Bearer header. */
async function signInElsewhere(request: APIRequestContext, email: string, password: string, userAgent: string) {
  const res = await request.post("/api/login", { data: { email, password }, headers: { "User-Agent": userAgent } });
  expect(res.status()).toBe(200);
  return { Authorization: `Bearer ${(await res.json()).access_token}` };
}

const profileStatus = async (request: APIRequestContext, headers: Record<string, string>) =>
  (await request.get("/api/profile", { headers })).status();

// Without JavaScript: the security page's forms posted in tests/accounts/security-page.test.ts.
test.describe("sessions with JavaScript", () => {
  test("the security page lists the sessions, ends one and then all the others", async ({ page, request }) => {
    const account = await registerViaApi(request, { account_type: "freelancer" });
    await signIn(page, account.email, account.password);
    const firefox = await signInElsewhere(request, account.email, account.password, FIREFOX_LINUX);

    await page.goto("/account/security");
    const section = page.getByRole("region", { name: "Sessões abertas" });
    await expect(section.locator("li.session-item")).toHaveCount(2);
    await expect(section.locator("li.session-item").first()).toContainText("Esta sessão");
    await expect(section).toContainText("Firefox · Linux");

    await section.getByRole("button", { name: "Encerrar a sessão de Firefox · Linux" }).click();
    await expect(toast(page, "Sessão encerrada.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Sessões abertas" }).locator("li.session-item")).toHaveCount(1);
    expect(await profileStatus(request, firefox)).toBe(401);

    const others = [
      await signInElsewhere(request, account.email, account.password, FIREFOX_LINUX),
      await signInElsewhere(request, account.email, account.password, SAFARI_IPHONE),
    ];
    await page.goto("/account/security");
    await expect(section.locator("li.session-item")).toHaveCount(3);
    await section.getByRole("button", { name: "Encerrar todas as outras" }).click();
    await expect(toast(page, "As outras sessões foram encerradas.")).toBeVisible();
    await expect(page.getByRole("region", { name: "Sessões abertas" })).toContainText("Nenhuma outra sessão aberta.");
    for (const headers of others) expect(await profileStatus(request, headers)).toBe(401);
    // The browser's own session goes on.
    await page.goto("/dashboard");
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test("a sign-in from a new device is e-mailed; its link ends that session, once", async ({ page, request }) => {
    const account = await registerViaApi(request, { account_type: "merchant" });
    await signIn(page, account.email, account.password);
    const intruder = await signInElsewhere(request, account.email, account.password, FIREFOX_LINUX);
    const mail = await lastMail(request, account.email, /novo acesso à sua conta/);
    expect(mail.text).toContain("Firefox · Linux");
    const link = linkIn(mail, "/sessions/end");

    // Opened signed out, in another browser: it asks before ending anything.
    const context = await page.context().browser()!.newContext({
      baseURL: test.info().project.use.baseURL,
    });
    const other = await context.newPage();
    await other.goto(link);
    await expect(other.getByRole("heading", { name: "Encerrar um acesso" })).toBeVisible();
    await expect(other.getByText("Firefox · Linux")).toBeVisible();
    expect(await profileStatus(request, intruder)).toBe(200);
    await other.getByRole("button", { name: "Encerrar este acesso" }).click();
    await expect(other.getByText("Acesso encerrado. Se não foi você, troque sua senha agora.")).toBeVisible();
    expect(await profileStatus(request, intruder)).toBe(401);
    await other.goto(link);
    await expect(other.getByText("Esta sessão já foi encerrada.")).toBeVisible();
    await context.close();

    // The owner's browser stays signed in.
    await page.goto("/account/security");
    await expect(page.getByRole("region", { name: "Sessões abertas" }).locator("li.session-item")).toHaveCount(1);
  });
});
