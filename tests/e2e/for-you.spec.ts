import { expect, test } from "@playwright/test";
import { noAxeFindings, registerViaApi, signIn } from "./support";

// "Para você", with JavaScript on and off: a freelancer who knows PHP opens it from the list of
// opportunities and finds the demo's PHP opportunity there; one with no skills is told to add them.

for (const javaScriptEnabled of [true, false]) {
  test(`for you ${javaScriptEnabled ? "with" : "without"} JavaScript`, async ({ browser, request }, testInfo) => {
    const { baseURL, locale, timezoneId } = testInfo.project.use;
    const who = await registerViaApi(request, { account_type: "freelancer", full_name: "Paula Programadora" });
    const page = await (await browser.newContext({ baseURL, locale, timezoneId, javaScriptEnabled })).newPage();
    await signIn(page, who.email, who.password);

    // No skills yet: the page says how to get matches.
    await page.goto("/opportunities");
    // (Followed by its address: without JavaScript the welcome toast stays over the button.)
    await page.goto((await page.getByRole("link", { name: "Para você" }).getAttribute("href"))!);
    await expect(page).toHaveURL(/\/para-voce$/);
    await expect(page.getByText("Acrescente suas habilidades ao perfil")).toBeVisible();
    if (javaScriptEnabled) await noAxeFindings(page);

    const token = (
      await (await request.post("/api/login", { data: { email: who.email, password: who.password } })).json()
    ).access_token as string;
    const saved = await request.post("/api/profile", {
      headers: { Authorization: `Bearer ${token}` },
      multipart: { full_name: "Paula Programadora", skills: "PHP, Laravel" },
    });
    expect(saved.status()).toBe(200);

    await page.reload();
    const card = page.locator(".opp-card").filter({ hasText: "Sistema de ordens de serviço para oficina mecânica" });
    await expect(card).toBeVisible();
    await card.getByRole("link", { name: /Ver detalhes/ }).click();
    await expect(page).toHaveURL(/\/opportunities\/[0-9a-f-]{36}$/);
    if (javaScriptEnabled) {
      await page.goBack();
      await noAxeFindings(page);
    }
  });
}
