import { expect, test } from "@playwright/test";
import { noAxeFindings, registerViaApi, signIn } from "./support";

// "Para você": a freelancer who knows PHP opens it from the list of opportunities and finds the
// demo's PHP opportunity there; one with no skills is told to add them. With JavaScript only: the
// pages are links and server-rendered lists, the same without it; the one form, the invitation
// from a suggestion, is posted without JavaScript in tests/marketplace/invitations.api.test.ts
// and tests/reputation/reviews-page.test.ts (both engines).

test("for you", async ({ browser, request }, testInfo) => {
  const { baseURL, locale, timezoneId } = testInfo.project.use;
  const who = await registerViaApi(request, { account_type: "freelancer", full_name: "Paula Programadora" });
  const page = await (await browser.newContext({ baseURL, locale, timezoneId })).newPage();
  await signIn(page, who.email, who.password);

  // No skills yet: the page says how to get matches.
  await page.goto("/opportunities");
  await page.goto((await page.getByRole("link", { name: "Para você" }).getAttribute("href"))!);
  await expect(page).toHaveURL(/\/para-voce$/);
  await expect(page.getByText("Acrescente suas habilidades ao perfil")).toBeVisible();
  await noAxeFindings(page);

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
  await page.goBack();
  await noAxeFindings(page);
});

// The merchant's side: an open opportunity suggests freelancers with its skills; "Convidar" opens
// the profile with the invitation set to that opportunity.
test("suggested freelancers", async ({ browser, request }, testInfo) => {
  const { baseURL, locale, timezoneId } = testInfo.project.use;
  const skill = `Xilo${Date.now().toString(36)}`;
  const tokenOf = async (who: { email: string; password: string }) =>
    (await (await request.post("/api/login", { data: who })).json()).access_token as string;
  const freelancer = await registerViaApi(request, { account_type: "freelancer", full_name: "Xênia Xilógrafa" });
  const saved = await request.post("/api/profile", {
    headers: { Authorization: `Bearer ${await tokenOf(freelancer)}` },
    multipart: { full_name: "Xênia Xilógrafa", skills: `${skill}, Gravura` },
  });
  expect(saved.status()).toBe(200);
  const merchant = await registerViaApi(request, { account_type: "merchant" });
  const created = await request.post("/api/opportunities", {
    headers: { Authorization: `Bearer ${await tokenOf(merchant)}` },
    data: {
      title: `Capa de livro em xilogravura ${skill}`,
      description: "Uma capa em xilogravura para um livro de cordel, com arquivo pronto para gráfica.",
      category: "design",
      skills: [skill],
      budget_type: "fixed",
      budget_min_cents: 80_000,
      budget_max_cents: 120_000,
      location_type: "remote",
    },
  });
  expect(created.status()).toBe(201);
  const uuid = (await created.json()).data.uuid as string;

  const page = await (await browser.newContext({ baseURL, locale, timezoneId })).newPage();
  await signIn(page, merchant.email, merchant.password);
  await page.goto(`/opportunities/${uuid}`);
  const box = page.getByRole("region", { name: "Freelancers sugeridos" });
  await expect(box).toContainText("Xênia Xilógrafa");
  await expect(box).toContainText("1 habilidade em comum");
  await noAxeFindings(page);
  await box.getByRole("link", { name: "Convidar Xênia Xilógrafa" }).click();
  await expect(page).toHaveURL(new RegExp(`/freelancers/[0-9a-f-]{36}\\?oportunidade=${uuid}`));
  const invite = page.getByRole("region", { name: "Convidar para uma oportunidade" });
  await expect(invite.getByRole("combobox")).toHaveValue(uuid);
  await invite.getByLabel("Mensagem").fill("Vi seu perfil: topa fazer a capa?");
  await invite.getByRole("button", { name: /Enviar convite/ }).click();
  await expect(page.getByRole("status").filter({ hasText: /Convite enviado/ })).toBeVisible();

  // Invited: no longer suggested.
  await page.goto(`/opportunities/${uuid}`);
  await expect(page.getByRole("region", { name: "Freelancers sugeridos" })).not.toContainText("Xênia Xilógrafa");
});
