import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Browser, Page, TestInfo } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiToken, registerViaApi, signIn, toast } from "./support";

// Public pages as people meet them (with JavaScript; the forms as posted without it are
// tests/discovery/public-pages-forms.test.ts's): a link to an opportunity shared
// on WhatsApp opens without an account, the visitor signs in from it, comes back to the same page
// and applies; a freelancer hides their public profile in the settings and the link stops
// working. And axe on these pages in the states the demo data does not show (a closed opportunity,
// a public page not found, the signed-in frame), at desktop and phone widths; the axe crawl
// (accessibility.spec.ts) checks every public route in the other languages.

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function publish(request: APIRequestContext, title: string) {
  const merchant = await registerViaApi(request, { account_type: "merchant", display_name: "Marina" });
  const res = await request.post("/api/opportunities", {
    headers: await apiToken(request, merchant.email, merchant.password),
    data: {
      title,
      description: "Cardápio digital, fotos dos pratos e botão de pedido pelo WhatsApp para um restaurante.",
      category: "design",
      skills: ["Figma", "Fotografia"],
      budget_type: "fixed",
      budget_min_cents: 80_000,
      budget_max_cents: 150_000,
      location_type: "hybrid",
      city: "Recife",
    },
  });
  expect(res.status()).toBe(201);
  return { merchant, uuid: (await res.json()).data.uuid as string };
}

/** A browser of its own, signed out. */
async function visitorPage(browser: Browser, testInfo: TestInfo, javaScriptEnabled: boolean) {
  const { baseURL, locale, timezoneId } = testInfo.project.use;
  const context = await browser.newContext({ baseURL, locale, timezoneId, javaScriptEnabled });
  return context.newPage();
}

function story(javaScriptEnabled: boolean) {
  test("a shared link: the visitor reads the opportunity, signs in, comes back to it and applies", async ({
    browser,
    request,
  }, testInfo) => {
    const title = `Cardápio digital ${Date.now().toString(36)}`;
    const { merchant, uuid } = await publish(request, title);
    const freelancer = await registerViaApi(request, { account_type: "freelancer", display_name: "Julinha" });
    const page = await visitorPage(browser, testInfo, javaScriptEnabled);

    // The link as shared (the id alone) lands on the page's own address.
    await page.goto(`/vagas/${uuid}`);
    await expect(page).toHaveURL(new RegExp(`/vagas/cardapio-digital-[a-z0-9]+-${uuid}$`));
    const here = new URL(page.url()).pathname;
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByText("Marina", { exact: true })).toBeVisible();
    await expect(page.getByText("Híbrido · Recife")).toBeVisible();
    await expect(page.getByText(merchant.email)).toHaveCount(0);

    // "Entre para se candidatar" → the login page → back on the same page, signed in.
    await page.getByRole("link", { name: "Entre para se candidatar" }).click();
    await expect(page).toHaveURL(/\/login\?redirectFrom=/);
    await page.getByLabel("E-mail").fill(freelancer.email);
    await page.getByLabel("Senha", { exact: true }).fill(freelancer.password);
    await page.locator("#login-form button[type=submit]").click();
    await expect(page).toHaveURL(new RegExp(`${here}$`));
    await expect(page.getByRole("heading", { name: title })).toBeVisible();

    // From there to the opportunity in the account, and the proposal.
    await page.getByRole("link", { name: "Candidatar-se" }).click();
    await expect(page).toHaveURL(new RegExp(`/opportunities/${uuid}#apply$`));
    await page.getByLabel("Carta de apresentação").fill("Faço cardápios digitais e fotografo pratos há cinco anos.");
    await page.getByLabel("Seu preço (R$)").fill("1200");
    await page.getByLabel("Prazo de entrega (dias)").fill("10");
    await page.getByRole("button", { name: "Enviar candidatura" }).click();
    await expect(page).toHaveURL(/\/applications\/[0-9a-f-]{36}$/);
    await expect(toast(page, "Candidatura enviada!")).toBeVisible();
    await page.context().close();
  });

  test("a freelancer hides the public profile in the settings, and its link is not found", async ({
    browser,
    request,
    freelancer,
  }, testInfo) => {
    const asFreelancer = await apiToken(request, freelancer.account.email, freelancer.account.password);
    const id = (await (await request.get("/api/profile", { headers: asFreelancer })).json()).user.id as string;
    const visitor = await visitorPage(browser, testInfo, javaScriptEnabled);
    await visitor.goto(`/perfil/${id}`);
    await expect(visitor.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(visitor.getByRole("link", { name: "Entre para convidar" })).toBeVisible();
    const here = new URL(visitor.url()).pathname;

    const page = freelancer.page;
    // Their own profile gives the public page's address to share.
    await page.goto("/profile");
    await expect(page.getByLabel("Link do seu perfil público")).toHaveValue(new RegExp(`${here}$`));
    await page.goto("/pages/profile-setting");
    const box = page.getByLabel("Mostrar meu perfil a visitantes (página pública e buscadores)");
    await expect(box).toBeChecked();
    await box.uncheck();
    await page.locator("#profile-form button[type=submit]").click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByLabel("Link do seu perfil público")).toHaveCount(0);
    // Asked of the server (the visitor's browser may keep the page its minute of cache).
    expect((await request.get(here, { maxRedirects: 0 })).status()).toBe(404);
    await page.goto("/pages/profile-setting");
    await expect(box).not.toBeChecked();
    await box.check();
    await page.locator("#profile-form button[type=submit]").click();
    await expect(page).toHaveURL(/\/profile$/);
    expect((await request.get(here, { maxRedirects: 0 })).status()).toBe(200);
    await visitor.context().close();
  });
}

test.describe("public pages, with JavaScript", () => {
  story(true);
});

async function axeFindings(page: Page, where: string) {
  const lines: string[] = [];
  for (const [width, size] of [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ] as const) {
    await page.setViewportSize(size);
    const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
    for (const v of results.violations)
      for (const node of v.nodes) lines.push(`${where} (${width}) ${v.id}: ${node.target.join(" ")} — ${v.help}`);
  }
  return lines;
}

test("axe: the public pages, signed out and in", async ({ browser, request }, testInfo) => {
  test.setTimeout(120_000);
  const { merchant, uuid } = await publish(request, `Fotos de pratos ${Date.now().toString(36)}`);
  const closed = await publish(request, `Vaga encerrada ${Date.now().toString(36)}`);
  const asClosed = await apiToken(request, closed.merchant.email, closed.merchant.password);
  expect((await request.post(`/api/opportunities/${closed.uuid}/close`, { headers: asClosed })).status()).toBe(200);
  const freelancer = await registerViaApi(request, { account_type: "freelancer", display_name: "Bia" });
  const asFreelancer = await apiToken(request, freelancer.email, freelancer.password);
  const updated = await request.post("/api/profile", {
    headers: asFreelancer,
    multipart: {
      bio: "Fotógrafa de gastronomia e designer de cardápios.",
      skills: "Fotografia, Figma",
      city: "Olinda",
    },
  });
  expect(updated.status()).toBe(200);
  const profileId = (await (await request.get("/api/profile", { headers: asFreelancer })).json()).user.id;

  const { baseURL, timezoneId } = testInfo.project.use;
  const context = await browser.newContext({ baseURL, timezoneId, locale: "pt-BR", reducedMotion: "reduce" });
  const page = await context.newPage();
  const lines: string[] = [];
  // A page that breaks while hydrating is a finding too (the document's own 404/410 is not).
  page.on("pageerror", (error) => lines.push(`${page.url()} script error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource"))
      lines.push(`${page.url()} console error: ${message.text()}`);
  });
  const visit = async (path: string, status: number) => {
    const res = await page.goto(path);
    expect(res!.status(), path).toBe(status);
    await page.waitForLoadState("networkidle");
    lines.push(...(await axeFindings(page, path)));
  };
  await visit(`/vagas/${uuid}`, 200);
  await visit(`/vagas/${closed.uuid}`, 410);
  await visit(`/perfil/${profileId}`, 200);
  await visit(`/vagas/x-${crypto.randomUUID()}`, 404);
  // Signed in (the app's frame around the same pages).
  await signIn(page, merchant.email, merchant.password);
  await visit(`/vagas/${uuid}`, 200);
  await visit(`/perfil/${profileId}`, 200);
  // The signed-in opportunity page with its link to share (the field and the link to open it).
  await visit(`/opportunities/${uuid}`, 200);
  const shared = await page.locator("#share-url").inputValue();
  expect(shared).toMatch(new RegExp(`/vagas/fotos-de-pratos-[a-z0-9]+-${uuid}$`));
  await context.close();
  expect(lines, `axe found ${lines.length} problems:\n${lines.join("\n")}`).toEqual([]);
});
