import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiToken, freshEmail, lastMail, linkIn, registerViaApi, toast } from "./support";

// Browsing before signing up, and signing up from there (docs/product.md, "Páginas públicas" and
// "Cadastro"): a visitor lands on the home, browses the open opportunities, opens one, signs up
// from "Entre para se candidatar" and is back on it signed in; confirming the e-mail then leads
// to the freelancer's next steps. The freelancers' list leads to a public profile the same way.

async function publish(request: APIRequestContext, title: string) {
  const merchant = await registerViaApi(request, { account_type: "merchant", display_name: "Marina" });
  const res = await request.post("/api/opportunities", {
    headers: await apiToken(request, merchant.email, merchant.password),
    data: {
      title,
      description: "Identidade visual completa para uma floricultura: logo, cartões e etiquetas dos buquês.",
      category: "design",
      skills: ["Illustrator"],
      budget_type: "fixed",
      budget_min_cents: 90_000,
      budget_max_cents: 160_000,
      location_type: "remote",
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).data.uuid as string;
}

test("a visitor browses, opens an opportunity, signs up from it and is back on it signed in; the e-mail's link leads to the next steps", async ({
  browser,
  request,
}, testInfo) => {
  const word = `floricultura${Date.now().toString(36)}`;
  const title = `Identidade visual ${word}`;
  const uuid = await publish(request, title);
  const { baseURL, locale, timezoneId } = testInfo.project.use;
  const context = await browser.newContext({ baseURL, locale, timezoneId });
  const page = await context.newPage();

  // The home of a visitor: the ways to browse, not the login.
  await page.goto("/");
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole("link", { name: "Ver vagas abertas" }).click();
  await expect(page).toHaveURL(/\/vagas$/);
  await expect(page.getByRole("heading", { level: 1, name: "Vagas abertas" })).toBeVisible();
  await page.getByLabel("Buscar").fill(word);
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${word}`));
  await expect(page.getByRole("heading", { level: 2, name: "1 oportunidade" })).toBeVisible();
  await page.getByRole("link", { name: title, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/vagas/identidade-visual-${word}-${uuid}$`));
  const here = new URL(page.url()).pathname;

  // "Entre para se candidatar" → the login → "Criar conta" → registered and back, signed in.
  await page.getByRole("link", { name: "Entre para se candidatar" }).click();
  await expect(page).toHaveURL(/\/login\?redirectFrom=/);
  await page.getByRole("link", { name: "Criar conta" }).last().click();
  await expect(page).toHaveURL(/\/register\?redirectFrom=/);
  const email = freshEmail("navegou");
  await expect(page.getByLabel("Freelancer")).toBeChecked();
  await page.getByLabel("Nome completo").fill("Vera Visitante");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha").fill("senha-segura-1");
  await page.getByRole("button", { name: "Criar conta" }).click();
  await expect(page).toHaveURL(new RegExp(`${here}$`));
  await expect(toast(page, `Conta criada! Enviamos um link para ${email}`)).toBeVisible();
  await expect(page.getByRole("region", { name: "Confirmar e-mail" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Candidatar-se" })).toBeVisible();

  // The link of the e-mail: confirmed, and the freelancer's next steps.
  await page.goto(linkIn(await lastMail(request, email, /confirme seu e-mail/), "/verify-email"));
  await expect(page).toHaveURL(/\/primeiros-passos$/);
  await expect(toast(page, "E-mail confirmado!")).toBeVisible();
  await expect(page.getByRole("link", { name: "Editar perfil" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Ver oportunidades" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Confirmar e-mail" })).toHaveCount(0);
  await context.close();
});

test("the freelancers' list leads to a public profile and its 'Entre para convidar', in English too", async ({
  browser,
  request,
}, testInfo) => {
  const name = `Zélia ${Date.now().toString(36)}`;
  await registerViaApi(request, { account_type: "freelancer", full_name: name });
  const { baseURL, locale, timezoneId } = testInfo.project.use;
  const context = await browser.newContext({ baseURL, locale, timezoneId });
  const page = await context.newPage();
  await page.goto("/");
  await page.getByRole("button", { name: "EN" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Hire and work as a freelancer, safely" })).toBeVisible();
  await page.getByRole("link", { name: "Find freelancers" }).click();
  await expect(page).toHaveURL(/\/perfis$/);
  await page.getByLabel("Search", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Filter" }).click();
  await page.getByRole("link", { name }).click();
  await expect(page).toHaveURL(/\/perfil\/zelia-[a-z0-9]+-[0-9a-f-]{36}$/);
  await expect(page.getByRole("link", { name: "Sign in to invite" })).toBeVisible();
  await context.close();
});
