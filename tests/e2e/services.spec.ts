import { expect, test } from "./fixtures";

// Ready-made services' public pages (docs/product.md, "Serviços prontos"): a visitor goes from the
// home's bar to /servicos, searches the demo data's services, opens one and finds its packages and
// the way to hire: talking to its freelancer, on their public profile.

test("a visitor searches the services, opens one and reaches its freelancer's profile", async ({
  browser,
}, testInfo) => {
  const { baseURL, locale, timezoneId } = testInfo.project.use;
  const context = await browser.newContext({ baseURL, locale, timezoneId });
  const page = await context.newPage();

  await page.goto("/");
  await page.getByRole("navigation", { name: "Explorar" }).getByRole("link", { name: "Serviços" }).click();
  await expect(page).toHaveURL(/\/servicos$/);
  await expect(page.getByRole("heading", { level: 1, name: "Serviços prontos" })).toBeVisible();

  await page.getByLabel("Buscar").fill("acessibilidade");
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/q=acessibilidade/);
  await expect(page.getByRole("heading", { level: 2, name: /^\d+ serviços?$/ })).toBeVisible();
  // The best match first.
  await expect(page.getByRole("article").first()).toContainText("Revisão de acessibilidade do seu site");
  const card = page.getByRole("article").filter({ hasText: "Revisão de acessibilidade do seu site" });
  await expect(card).toContainText("a partir de");
  await expect(card).toContainText("por Júlia");

  await card.getByRole("link", { name: "Revisão de acessibilidade do seu site" }).click();
  await expect(page).toHaveURL(/\/servicos\/revisao-de-acessibilidade-do-seu-site-[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: "Revisão de acessibilidade do seu site" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Pacotes" })).toBeVisible();
  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  expect(ld).toMatchObject({ "@type": "Service", provider: { "@type": "Person", name: "Júlia" } });
  expect(ld.offers[0]).toMatchObject({ "@type": "Offer", priceCurrency: "BRL" });

  const hire = page.getByRole("complementary");
  await expect(hire).toContainText("Para contratar, fale com Júlia.");
  await hire.getByRole("link", { name: "Júlia" }).click();
  await expect(page).toHaveURL(/\/perfil\/julia-[0-9a-f-]{36}$/);
  await context.close();
});
