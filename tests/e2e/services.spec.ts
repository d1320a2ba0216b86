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

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a freelancer creates a service with two packages through the form, publishes it and finds it on /servicos", async ({
    freelancer,
  }) => {
    const { page } = freelancer;
    const title = `Cartão de visita ${Date.now()}`;
    await page.goto("/dashboard");
    await page.getByRole("link", { name: "Meus serviços" }).first().click();
    await expect(page).toHaveURL(/\/meus-servicos$/);
    await page.getByRole("link", { name: "Novo serviço" }).first().click();
    await expect(page).toHaveURL(/\/meus-servicos\/novo$/);

    await page.getByLabel("Título").fill(title);
    await page.getByLabel("Categoria").selectOption("design");
    await page
      .getByLabel("Descrição")
      .fill("Crio o cartão de visita da sua loja, frente e verso, com arquivo pronto para a gráfica.");
    await page.getByLabel("Habilidades").fill("Illustrator, Impressão");
    const first = page.getByRole("group", { name: "Pacote 1" });
    await first.getByLabel("Nome do pacote").fill("Simples");
    await first.getByLabel("O que inclui").fill("Frente\nArquivo PDF");
    await first.getByLabel("Preço (R$)").fill("120,00");
    await first.getByLabel("Prazo (dias)").fill("3");
    await first.getByLabel("Revisões").fill("1");

    // A second package: the form comes back with one more row and everything typed kept.
    await page.getByRole("button", { name: "Adicionar pacote" }).click();
    await expect(page.getByLabel("Título")).toHaveValue(title);
    await expect(first.getByLabel("Preço (R$)")).toHaveValue("120,00");
    const second = page.getByRole("group", { name: "Pacote 2" });
    await second.getByLabel("Nome do pacote").fill("Completo");
    await second.getByLabel("O que inclui").fill("Frente e verso\nArquivo editável");
    await second.getByLabel("Preço (R$)").fill("mil");
    await second.getByLabel("Prazo (dias)").fill("5");
    await second.getByLabel("Revisões").fill("2");

    // A price that is not one is said on its field, the rest kept.
    await page.getByRole("button", { name: "Salvar e publicar" }).click();
    await expect(second.getByText("Informe um valor em reais, como 1.500,00.")).toBeVisible();
    await expect(second.getByLabel("Nome do pacote")).toHaveValue("Completo");
    await second.getByLabel("Preço (R$)").fill("1.234,56");
    await page.getByRole("button", { name: "Salvar e publicar" }).click();

    await expect(page).toHaveURL(/\/meus-servicos$/);
    const card = page.getByRole("listitem").filter({ hasText: title });
    await expect(card).toContainText("publicado");
    await expect(card).toContainText("R$ 120,00");

    await page.goto(`/servicos?q=${encodeURIComponent(title)}`);
    const listed = page.getByRole("article").filter({ hasText: title });
    await expect(listed).toContainText("a partir de");
    await listed.getByRole("link", { name: title }).click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByText("R$ 1.234,56")).toBeVisible();
  });
});
