import { readFile } from "node:fs/promises";
import { unzipSync } from "fflate";
import { expect, test } from "@playwright/test";
import { lastMail, noAxeFindings, registerViaApi, signIn, toast } from "./support";

// "Seus dados" in /account/security: the user asks for a copy of
// their data, the server's export job builds it, the e-mail arrives with the link, the page says
// until when it is ready and downloads the ZIP (their profile inside); the link is nobody else's
// (404 for another account). axe on the section in both languages. With JavaScript only: the
// form posted without it is "is asked for from the security page without JavaScript, and shows
// its state there" in tests/accounts/data-export.api.test.ts (both engines); the download is a
// link, the same either way.

test("asks for a copy, gets the e-mail and downloads it", async ({ page, browser }) => {
  const account = await registerViaApi(page.request, { account_type: "freelancer" });
  await signIn(page, account.email, account.password);
  await page.goto("/account/security");
  const section = page.getByRole("region", { name: "Seus dados", exact: true });
  await expect(section).toBeVisible();
  await noAxeFindings(page);

  await section.getByRole("button", { name: "Pedir cópia dos meus dados" }).click();
  await expect(
    toast(page, "Pedido recebido. Avisaremos por e-mail quando a cópia dos seus dados estiver pronta."),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/account\/security#data$/);

  const mail = await lastMail(page.request, account.email, /sua cópia dos dados está pronta/);
  const link = mail.text.match(/https?:\/\/\S+\/account\/data-export\/[0-9a-f-]{36}/)?.[0];
  expect(link, mail.text).toBeTruthy();
  expect(new URL(link!).origin).toBe(new URL(test.info().project.use.baseURL!).origin);

  await page.reload();
  await expect(section.getByText("Pronta", { exact: true })).toBeVisible();
  await expect(section.getByText(/Disponível para baixar até/)).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    section.getByRole("link", { name: "Baixar meus dados (ZIP)" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^freela-meus-dados-\d{4}-\d{2}-\d{2}\.zip$/);
  const files = unzipSync(new Uint8Array(await readFile((await download.path())!)));
  expect(JSON.parse(new TextDecoder().decode(files["profile.json"]))).toMatchObject({ email: account.email });
  expect(Object.keys(files)).toContain("messages.json");

  // The e-mail's link itself, for the owner; another account gets the not-found answer.
  const own = await page.request.get(link!, { maxRedirects: 0 });
  expect(own.status()).toBe(200);
  expect(own.headers()["content-type"]).toBe("application/zip");
  const otherContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const otherPage = await otherContext.newPage();
  const other = await registerViaApi(otherPage.request, { account_type: "merchant" });
  await signIn(otherPage, other.email, other.password);
  expect((await otherPage.request.get(link!, { maxRedirects: 0 })).status()).toBe(404);
  await otherContext.close();

  await noAxeFindings(page);
  const english = await page.request.post("/language", {
    form: { lng: "en", redirectTo: "/account/security" },
    headers: { Origin: new URL(test.info().project.use.baseURL!).origin },
    maxRedirects: 0,
  });
  expect(english.status()).toBe(302);
  // The page is at /account/security#data: a URL without the fragment loads it anew.
  await page.goto("/account/security");
  const yours = page.getByRole("region", { name: "Your data", exact: true });
  await expect(yours.getByRole("link", { name: "Download my data (ZIP)" })).toBeVisible();
  await expect(yours.getByText(/Available to download until/)).toBeVisible();
  await noAxeFindings(page);
});
