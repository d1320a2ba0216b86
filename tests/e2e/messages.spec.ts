import { expect, test, type APIRequestContext, type Browser, type TestInfo } from "@playwright/test";
import { noAxeFindings, PNG_1X1, registerViaApi, signIn } from "./support";

// A conversation about an application: the freelancer writes with a file, the merchant sees the
// unread count in the top bar (live), finds it in the inbox, opens it and answers. The form as
// posted without JavaScript is tests/messaging/messages-page.test.ts's.

async function applied(request: APIRequestContext) {
  const merchant = await registerViaApi(request, { account_type: "merchant", display_name: "Marina" });
  const freelancer = await registerViaApi(request, { account_type: "freelancer", display_name: "Julinha" });
  const token = async (who: { email: string; password: string }) => ({
    Authorization: `Bearer ${(await (await request.post("/api/login", { data: who })).json()).access_token}`,
  });
  const opp = await request.post("/api/opportunities", {
    headers: await token(merchant),
    data: {
      title: `Cardápio digital ${Date.now().toString(36)}`,
      description: "Cardápio com fotos dos pratos e link para pedidos pelo WhatsApp.",
      category: "design",
      budget_type: "fixed",
      budget_min_cents: 50_000,
      budget_max_cents: 90_000,
      location_type: "remote",
    },
  });
  const app = await request.post(`/api/opportunities/${(await opp.json()).data.uuid}/applications`, {
    headers: await token(freelancer),
    data: {
      cover_letter: "Faço cardápios digitais leves e bonitos para restaurantes.",
      price_cents: 70_000,
      delivery_days: 7,
    },
  });
  return { merchant, freelancer, id: (await app.json()).data.id as string };
}

async function userPage(browser: Browser, testInfo: TestInfo, who: { email: string; password: string }) {
  const { baseURL, locale, timezoneId } = testInfo.project.use;
  const page = await (await browser.newContext({ baseURL, locale, timezoneId })).newPage();
  await signIn(page, who.email, who.password);
  return page;
}

test("messages with files, unread counts", async ({ request, browser }, testInfo) => {
  test.setTimeout(60_000);
  const { merchant, freelancer, id } = await applied(request);
  const julia = await userPage(browser, testInfo, freelancer);
  const marina = await userPage(browser, testInfo, merchant);
  // The merchant has the dashboard open while the freelancer writes.
  await marina.goto("/dashboard");
  await expect(marina.locator(".messages-count")).toHaveCount(0);

  await julia.goto(`/applications/${id}`);
  await julia.getByRole("main").getByRole("link", { name: "Mensagens", exact: true }).click();
  await expect(julia.getByText("Nenhuma mensagem ainda.")).toBeVisible();
  await julia.getByRole("button", { name: "Enviar mensagem" }).click();
  await expect(julia.locator("#body-error")).toHaveText("Escreva a mensagem: este campo é obrigatório.");
  await julia.getByLabel("Mensagem", { exact: true }).fill("Olá! Segue um exemplo de cardápio que fiz.");
  await julia.getByLabel("Arquivos").setInputFiles({ name: "exemplo.png", mimeType: "image/png", buffer: PNG_1X1 });
  await julia.getByRole("button", { name: "Enviar mensagem" }).click();
  await expect(julia.getByRole("status").filter({ hasText: "Mensagem enviada." })).toBeVisible();
  await expect(julia.getByRole("link", { name: "exemplo.png" })).toBeVisible();
  // Sent, the form is empty again: the same message cannot go twice.
  await expect(julia.getByLabel("Mensagem", { exact: true })).toHaveValue("");
  expect(await julia.getByLabel("Arquivos").evaluate((input: HTMLInputElement) => input.files?.length ?? 0)).toBe(0);

  // The merchant sees one unread message in the top bar (live: within a couple of seconds and
  // without reloading; there is no polling), opens it, and the count goes away.
  await expect(marina.locator(".messages-count")).toHaveText("1", { timeout: 3_000 });
  await marina.goto((await marina.getByRole("link", { name: "1 mensagem não lida" }).getAttribute("href"))!);
  // The inbox, on its unread conversations: who wrote, the start of the message, the count.
  await expect(marina).toHaveURL(/\/mensagens\?filter=unread$/);
  await expect(marina).toHaveTitle(/Mensagens/);
  const row = marina.getByRole("listitem").filter({ hasText: "Olá! Segue um exemplo de cardápio que fiz." });
  await expect(row).toContainText("Julinha");
  await expect(row).toContainText("1 mensagem não lida");
  await noAxeFindings(marina);
  await row.getByRole("link").click();
  await expect(marina).toHaveURL(new RegExp(`/applications/${id}/messages`));
  await expect(marina.getByText("Olá! Segue um exemplo de cardápio que fiz.")).toBeVisible();
  await expect(marina.locator(".messages-count")).toHaveCount(0);
  await expect(
    marina.getByRole("complementary", { name: "Menu principal" }).getByRole("link", { name: "Mensagens" }),
  ).toHaveAttribute("href", "/mensagens");
  await marina.getByLabel("Mensagem", { exact: true }).fill("Gostei! Pode fazer um com fundo claro?");
  await marina.getByRole("button", { name: "Enviar mensagem" }).click();
  await expect(marina.getByRole("status").filter({ hasText: "Mensagem enviada." })).toBeVisible();

  // The open page shows the answer without reloading, as it is sent (live updates).
  await expect(julia.getByText("Gostei! Pode fazer um com fundo claro?")).toBeVisible({ timeout: 3_000 });
});
