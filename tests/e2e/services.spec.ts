import { expect, test } from "./fixtures";
import { PNG_1X1 } from "../support/fixtures";
import { bearerOf, money, toast } from "./support";

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

    // An image, through the images' own multipart form: the first is the catalogue card's picture.
    await card.getByRole("link", { name: title, exact: true }).click();
    await page.getByLabel("Nova imagem").setInputFiles({ name: "capa.png", mimeType: "image/png", buffer: PNG_1X1 });
    await page.getByRole("button", { name: "Adicionar imagem" }).click();
    await expect(toast(page, "Imagem adicionada.")).toBeVisible();
    await expect(page.getByRole("img", { name: "Imagem 1" })).toBeVisible();

    await page.goto(`/servicos?q=${encodeURIComponent(title)}`);
    const listed = page.getByRole("article").filter({ hasText: title });
    await expect(listed).toContainText("a partir de");
    await expect(listed.locator("img.service-card-cover")).toHaveAttribute("src", /^\/uploads\/[0-9a-f-]{36}\.png$/);
    await listed.getByRole("link", { name: title }).click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByText("R$ 1.234,56")).toBeVisible();
    await expect(page.getByRole("list", { name: "Imagens do serviço" }).getByRole("img")).toHaveCount(1);
  });
});

// Buying a ready-made service (docs/product.md, "Contratar um serviço"): the freelancer publishes
// one (through the API), a merchant picks a package and an extra, answers the questions and
// confirms; the contract shows the order; the freelancer delivers, the merchant approves, and the
// review shows on the service's page; with JavaScript, the merchant then reports the service. With
// and without JavaScript.
function buyingStory() {
  test("publish → buy → answer → deliver → approve → review on the service", async ({
    newUser,
    request,
    javaScriptEnabled,
  }) => {
    const julia = await newUser("freelancer", { display_name: "Júlia Logos" });
    const marina = await newUser("merchant", { display_name: "Marina Doces" });
    const asJulia = await bearerOf(request, julia.account);
    const asMarina = await bearerOf(request, marina.account);
    const title = `Logotipo para confeitaria ${Date.now().toString(36)}`;
    const created = await request.post("/api/services", {
      headers: asJulia,
      data: {
        title,
        category: "design",
        description: "Crio o logotipo da sua marca com três propostas, arquivos para impressão e redes sociais.",
        packages: [
          { name: "Básico", includes: ["Uma proposta"], price_cents: 15_000, delivery_days: 5, revisions: 1 },
          {
            name: "Completo",
            includes: ["Três propostas", "Manual da marca"],
            price_cents: 45_000,
            delivery_days: 3,
            revisions: 3,
          },
        ],
        extras: [{ title: "Entrega em 24 horas", price_cents: 8_000, extra_days: 0 }],
        questions: [
          { text: "Qual é o nome da marca?", kind: "text", required: true },
          { text: "Qual estilo você prefere?", kind: "choice", choices: ["Moderno", "Clássico"], required: false },
        ],
      },
    });
    expect(created.status()).toBe(201);
    const service = (await created.json()).data;
    expect((await request.post(`/api/services/${service.id}/publish`, { headers: asJulia })).status()).toBe(200);

    // The merchant picks the full package on the service's page, then ticks the extra.
    const page = marina.page;
    await page.goto(`/servicos/${service.slug}-${service.id}`);
    await page.getByRole("link", { name: "Contratar o pacote Completo" }).click();
    await expect(page).toHaveURL(/\/contratar\?pacote=1$/);
    await expect(page.getByRole("heading", { name: "Confirmar o pedido" })).toBeVisible();
    await expect(page.getByRole("heading", { name: /^Total:/ })).toHaveText(money("Total: R$ 450,00"));
    await page.getByLabel(/Entrega em 24 horas/).check();
    await page.getByRole("button", { name: "Atualizar o total" }).click();
    await expect(page.getByRole("heading", { name: /^Total:/ })).toHaveText(money("Total: R$ 530,00"));

    // The required answer is asked for on its field; what was chosen stays.
    await page.getByLabel("Qual estilo você prefere? (opcional)").selectOption("Moderno");
    await page.getByRole("button", { name: "Confirmar e contratar" }).click();
    await expect(page.locator("#answer_0-error")).toHaveText("Responda a esta pergunta.");
    await expect(page.getByLabel("Qual estilo você prefere? (opcional)")).toHaveValue("Moderno");
    await page.getByLabel("Qual é o nome da marca?").fill("Doce Lar");
    await page.getByRole("button", { name: "Confirmar e contratar" }).click();
    await expect(toast(page, "Pedido feito. O contrato está aberto.")).toBeVisible();
    await expect(page).toHaveURL(/\/contracts\/[0-9a-f-]{36}$/);
    const id = page.url().split("/").pop()!;
    const box = page.getByRole("region", { name: "Pedido do serviço" });
    await expect(box).toContainText("Completo");
    await expect(box).toContainText("Revisões usadas: 0 de 3");
    await expect(box).toContainText("Doce Lar");

    // The freelancer delivers (API); the merchant approves on the page.
    const delivered = await request.post(`/api/contracts/${id}/deliveries`, {
      headers: asJulia,
      multipart: { message: "Logotipo final com as três propostas." },
    });
    expect(delivered.status()).toBe(201);
    await page.goto(`/contracts/${id}`);
    await page.getByRole("link", { name: "Aprovar entrega" }).click();
    await page
      .getByRole("alertdialog", { name: "Aprovar esta entrega?" })
      .getByRole("button", { name: "Sim, aprovar e concluir" })
      .click();
    await expect(toast(page, "Entrega aprovada. Contrato concluído!")).toBeVisible();

    // Both review; the merchant's review of the freelancer shows on the service's page.
    const reviews = page.getByRole("region", { name: "Avaliações" });
    await reviews.getByLabel("5 estrelas").check();
    await reviews.getByLabel("Comentário (opcional)").fill("Logotipo lindo, entregue no prazo.");
    await reviews.getByRole("button", { name: "Enviar avaliação" }).click();
    await expect(toast(page, "Avaliação enviada.")).toBeVisible();
    const theirs = await request.post(`/api/contracts/${id}/reviews`, {
      headers: asJulia,
      data: { rating: 5, comment: "Cliente claro nas respostas." },
    });
    expect(theirs.status()).toBe(201);
    expect((await request.get(`/api/contracts/${id}`, { headers: asMarina })).status()).toBe(200);
    await page.goto(`/servicos/${service.slug}-${service.id}`);
    const onService = page.getByRole("region", { name: "Avaliações de quem contratou" });
    await expect(onService).toContainText("Logotipo lindo, entregue no prazo.");
    await expect(onService).toContainText("Marina Doces");

    if (javaScriptEnabled) {
      // The buyer reports the service from its page (the form without JavaScript is the
      // moderation story's): a reason, the confirmation, and back to the service.
      await page.getByRole("link", { name: "Denunciar um serviço" }).click();
      await expect(page.getByRole("heading", { name: /^Denunciar o serviço «.+»$/ })).toBeVisible();
      await page.getByLabel("Golpe ou fraude").check();
      await page.getByRole("button", { name: "Enviar denúncia" }).click();
      await expect(page.getByRole("heading", { name: "Denúncia enviada" })).toBeVisible();
      await page.getByRole("link", { name: "Voltar" }).click();
      await expect(page).toHaveURL(new RegExp(`/servicos/${service.slug}-${service.id}$`));
    }
  });
}

test.describe("buying a service, with JavaScript", () => {
  buyingStory();
});

test.describe("buying a service, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  buyingStory();
});
