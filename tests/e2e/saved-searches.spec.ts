import { expect, test } from "@playwright/test";
import { noAxeFindings, registerViaApi, signIn } from "./support";

// Saved searches, with JavaScript (without it: the forms as posted in
// tests/discovery/saved-searches-page.test.ts): a freelancer filters the opportunity list, saves the
// search with a name and a frequency, finds it on /buscas-salvas with its filters and a link back
// to its results, changes its frequency and deletes it. axe on the page in both languages.

test("saved searches with JavaScript", async ({ browser, request }, testInfo) => {
  const { baseURL, locale, timezoneId } = testInfo.project.use;
  const who = await registerViaApi(request, { account_type: "freelancer", full_name: "Sara Salva" });
  const context = await browser.newContext({ baseURL, locale, timezoneId });
  const page = await context.newPage();
  await signIn(page, who.email, who.password);

  await page.goto("/opportunities?q=loja&category=desenvolvimento&budget_min=500");
  // The form is folded under the filters; its summary opens it (no JavaScript needed).
  await page.getByText("Salvar esta busca", { exact: true }).click();
  const save = page.locator("details.save-search");
  await noAxeFindings(page);
  await expect(save.getByLabel("Nome da busca")).toHaveValue("loja");
  await save.getByLabel("Nome da busca").fill("Lojas virtuais");
  await save.getByLabel("Alertas por e-mail").selectOption("weekly");
  await save.getByRole("button", { name: "Salvar busca" }).click();

  await expect(page).toHaveURL(/\/buscas-salvas$/);
  const card = page.getByRole("region", { name: "Lojas virtuais" });
  await expect(card).toBeVisible();
  await expect(card.getByText("“loja” · Desenvolvimento")).toBeVisible();
  await expect(card.getByLabel("Alertas por e-mail")).toHaveValue("weekly");
  const results = await card.getByRole("link", { name: /^Ver resultados\s?: Lojas virtuais$/ }).getAttribute("href");
  expect(results).toBe("/opportunities?q=loja&category=desenvolvimento&budget_min=500%2C00");
  await noAxeFindings(page);

  // A blank name is refused beside its field.
  await card.getByLabel("Nome da busca").fill("   ");
  await card.getByRole("button", { name: /^Salvar alterações\s?: Lojas virtuais$/ }).click();
  await expect(page.getByText("O nome da busca deve ter de 1 a 80 caracteres.").first()).toBeVisible();

  const again = page.getByRole("region", { name: "Lojas virtuais" });
  await again.getByLabel("Nome da busca").fill("Lojas");
  await again.getByLabel("Alertas por e-mail").selectOption("immediate");
  await again.getByRole("button", { name: /^Salvar alterações\s?: Lojas virtuais$/ }).click();
  const renamed = page.getByRole("region", { name: "Lojas", exact: true });
  await expect(renamed.getByLabel("Alertas por e-mail")).toHaveValue("immediate");

  // The results link leads back to the list with the same filters.
  await page.goto(results!);
  await expect(page.getByLabel("Buscar")).toHaveValue("loja");

  await page.goto("/buscas-salvas");
  await page
    .getByRole("region", { name: "Lojas", exact: true })
    .getByRole("button", { name: /^Excluir\s?: Lojas$/ })
    .click();
  await expect(page.getByText("Nenhuma busca salva")).toBeVisible();

  await request.post("/api/saved-searches", {
    headers: {
      Authorization: `Bearer ${(await (await request.post("/api/login", { data: who })).json()).access_token}`,
    },
    data: { name: "Design", frequency: "daily", filters: { category: "design" } },
  });
  const english = await page.request.post("/language", {
    form: { lng: "en", redirectTo: "/buscas-salvas" },
    headers: { Origin: new URL(baseURL!).origin },
    maxRedirects: 0,
  });
  expect(english.status()).toBe(302);
  await page.goto("/buscas-salvas");
  await expect(page.getByRole("heading", { name: "Saved searches", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "Design" }).getByLabel("E-mail alerts")).toHaveValue("daily");
  await noAxeFindings(page);
  await context.close();
});
