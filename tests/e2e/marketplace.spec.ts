import { expect, test, type APIRequestContext, type Browser, type Page, type TestInfo } from "@playwright/test";
import { apiToken, money, registerViaApi, userPage as accountPage } from "./support";

// The marketplace story as real users live it, once with JavaScript and once without: a merchant
// posts an opportunity with one vacancy, two freelancers apply, the merchant counters one, that
// freelancer accepts, the opportunity is filled and the other application is rejected with its reason.

/** A fresh account through POST /api/register. */
function register(
  request: APIRequestContext,
  account_type: "merchant" | "freelancer",
  display_name: string,
  full_name = display_name === "Marina" ? "Marina Contratante" : `${display_name} Freelancer`,
) {
  return registerViaApi(request, { account_type, display_name, full_name });
}

/** A browser of its own for each user, with the project's settings and JavaScript on or off. */
async function userPage(browser: Browser, testInfo: TestInfo, javaScriptEnabled: boolean) {
  const { baseURL, locale, timezoneId } = testInfo.project.use;
  const context = await browser.newContext({ baseURL, locale, timezoneId, javaScriptEnabled });
  return context.newPage();
}

/** Logs in by typing into the login page, as people do. */
async function logIn(page: Page, email: string, password: string, name: string) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar", exact: true }).click();
  await expect(page.getByText(`Olá, ${name}`).first()).toBeVisible();
}

function toast(page: Page, text: string | RegExp) {
  return page.getByRole("status").filter({ hasText: text });
}

async function postOpportunity(page: Page, title: string) {
  await page.goto("/opportunities");
  await page.getByRole("link", { name: "Nova oportunidade" }).first().click();
  await expect(page).toHaveURL(/\/opportunities\/create$/);
  await expect(page).toHaveTitle("Nova oportunidade | Freela");
  await page.getByLabel("Título").fill(title);
  await page.getByLabel("Descrição").fill("Site com cardápio, endereço, horários e botão de WhatsApp para a padaria.");
  await page.getByLabel("Categoria").selectOption("desenvolvimento");
  await page.getByLabel("Habilidades desejadas").fill("React, SEO");
  await page.getByLabel("Preço fixo").check();
  // A price that is not a price is refused next to its field, and nothing typed is lost.
  await page.getByLabel("Orçamento mínimo (R$)").fill("mil e quinhentos");
  await page.getByLabel("Orçamento máximo (R$)").fill("R$ 3.000");
  await page.getByLabel("Vagas").fill("1");
  await page.getByRole("button", { name: "Publicar oportunidade" }).click();
  await expect(page.locator("#budget_min-error")).toHaveText("Informe um valor em reais, como 1.500,00.");
  await expect(page.getByLabel("Título")).toHaveValue(title);
  await expect(page.getByLabel("Orçamento máximo (R$)")).toHaveValue("R$ 3.000");
  await expect(page.getByLabel("Categoria")).toHaveValue("desenvolvimento");

  await page.getByLabel("Orçamento mínimo (R$)").fill("1.500,00");
  await page.getByRole("button", { name: "Publicar oportunidade" }).click();
  await expect(page).toHaveURL(/\/opportunities\/[0-9a-f-]{36}$/);
  await expect(toast(page, "Oportunidade publicada com sucesso.")).toBeVisible();
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await expect(page.locator(".opp-detail .facts")).toContainText(money("R$ 1.500,00 – R$ 3.000,00"));
  return new URL(page.url()).pathname.split("/").pop()!;
}

/** Applies through the list's search; `refusedFirst`: first sends a short letter on a phone's screen. */
async function apply(page: Page, title: string, price: string, days: string, refusedFirst = false) {
  // The search lives in the URL, like every filter of the list.
  await page.goto("/opportunities");
  await page.getByLabel("Buscar").fill(title);
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/[?&]q=/);
  await page.getByRole("link", { name: title }).click();
  if (refusedFirst) {
    // The refused form opens at its error summary, far down a phone's page (reloaded without
    // JavaScript: autofocus), naming every problem, each a link to its field.
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel("Carta de apresentação").fill("curta");
    await page.getByRole("button", { name: "Enviar candidatura" }).click();
    const summary = page.locator(".error-summary");
    await expect(summary).toBeFocused();
    await expect(summary).toBeInViewport();
    await expect(summary.getByRole("link")).toHaveCount(3);
    for (const href of await summary.getByRole("link").evaluateAll((a) => a.map((l) => l.getAttribute("href")!))) {
      await expect(page.locator(href)).toHaveCount(1);
    }
    await summary.getByRole("link", { name: /carta de apresentação/ }).click();
    await expect(page.getByLabel("Carta de apresentação")).toBeInViewport();
    await page.setViewportSize(viewport);
  }
  await page
    .getByLabel("Carta de apresentação")
    .fill("Faço sites rápidos e acessíveis para pequenos negócios há sete anos.");
  await page.getByLabel("Seu preço (R$)").fill(price);
  await page.getByLabel("Prazo de entrega (dias)").fill(days);
  await page.getByRole("button", { name: "Enviar candidatura" }).click();
  await expect(page).toHaveURL(/\/applications\/[0-9a-f-]{36}$/);
  await expect(toast(page, "Candidatura enviada!")).toBeVisible();
  await expect(page.getByText("Pendente · aguardando o contratante").first()).toBeVisible();
  return new URL(page.url()).pathname.split("/").pop()!;
}

function story(javaScriptEnabled: boolean) {
  test("a merchant hires one of two freelancers after a counter-offer", async ({ page, browser }, testInfo) => {
    // Three accounts, two proposals, a negotiation and a hire: about 30 steps through the pages.
    test.slow();
    const stamp = Date.now().toString(36);
    const title = `Site da padaria ${stamp}`;
    const merchant = await register(page.request, "merchant", "Marina");
    const julia = await register(page.request, "freelancer", "Julinha", "Júlia Rocha");
    const pedro = await register(page.request, "freelancer", "Pedrão", "Pedro Alves");

    // The merchant posts an opportunity with one vacancy.
    await logIn(page, merchant.email, merchant.password, "Marina");
    const uuid = await postOpportunity(page, title);

    // Two freelancers apply, each in a browser of their own.
    const juliaPage = await userPage(browser, testInfo, javaScriptEnabled);
    await logIn(juliaPage, julia.email, julia.password, "Julinha");
    const juliaApp = await apply(juliaPage, title, "2.500,00", "20", !javaScriptEnabled);
    const pedroPage = await userPage(browser, testInfo, javaScriptEnabled);
    await logIn(pedroPage, pedro.email, pedro.password, "Pedrão");
    await apply(pedroPage, title, "2800", "25");

    // The merchant's list shows what awaits them; the bell counts the two applications.
    await page.goto("/");
    await expect(page).toHaveTitle("Minhas Oportunidades | Freela");
    await expect(page.locator(".bell-count")).toHaveText("2");
    const card = page.locator(".opp-card").filter({ hasText: title });
    await expect(card.getByText("2 candidaturas")).toBeVisible();
    await expect(card.getByText("2 aguardando você")).toBeVisible();

    // The merchant counters Júlia's application.
    await page.goto(`/opportunities/${uuid}/applications`);
    const juliaCard = page.locator(".app-card").filter({ hasText: "Julinha" });
    await expect(juliaCard.getByText("Pendente · aguardando você")).toBeVisible();
    await juliaCard.getByRole("link", { name: "Negociar" }).click();
    await expect(page).toHaveTitle("Negociação de Candidatura | Freela");
    // The counter-offer form starts with the terms on the table, price as the field takes it.
    await expect(page.getByLabel("Preço (R$)")).toHaveValue("2.500,00");
    await expect(page.getByLabel("Prazo de entrega (dias)")).toHaveValue("20");
    await page.getByLabel("Preço (R$)").fill("2.000,00");
    await page.getByLabel("Prazo de entrega (dias)").fill("15");
    await page.getByLabel("Mensagem (opcional)").fill("Fechamos em R$ 2.000 com entrega em 15 dias?");
    await page.getByRole("button", { name: "Enviar contraproposta" }).click();
    await expect(toast(page, "Contraproposta enviada.")).toBeVisible();
    await expect(page.getByText("Contraproposta · aguardando o freelancer").first()).toBeVisible();
    // It is not the merchant's turn any more: no accept, no counter form; rejecting is still allowed.
    await expect(page.getByRole("link", { name: /Aceitar proposta/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Enviar contraproposta" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Recusar candidatura" })).toBeVisible();

    // Júlia is notified, sees the counter-offer beside her own terms and accepts it.
    await juliaPage.goto("/my-applications");
    await expect(juliaPage.locator(".bell-count")).toHaveText("1");
    const mine = juliaPage.locator(".app-card").filter({ hasText: title });
    await expect(mine.getByText("Contraproposta · aguardando você")).toBeVisible();
    await mine.getByRole("link", { name: "Negociar" }).click();
    await expect(juliaPage).toHaveURL(new RegExp(`/applications/${juliaApp}/negotiate$`));
    await expect(juliaPage.locator(".compare-current")).toContainText(money("R$ 2.000,00"));
    await expect(juliaPage.locator(".compare-current")).toContainText("15 dias");
    await expect(juliaPage.locator(".compare-previous")).toContainText(money("R$ 2.500,00"));
    await expect(juliaPage.locator(".timeline-item")).toHaveCount(2);
    await expect(juliaPage.getByText("Fechamos em R$ 2.000 com entrega em 15 dias?")).toBeVisible();
    // Accepting hires her: a step first says on which terms, and that it becomes a contract.
    await juliaPage.getByRole("link", { name: /Aceitar proposta/ }).click();
    const step = juliaPage.getByRole("alertdialog", { name: "Aceitar a proposta de Marina?" });
    await expect(step).toContainText(money("R$ 2.000,00, com entrega em 15 dias"));
    await expect(step).toContainText("Você fica contratado(a) por Marina");
    await step.getByRole("button", { name: "Sim, aceitar e fechar negócio" }).click();
    await expect(juliaPage).toHaveURL(new RegExp(`/applications/${juliaApp}$`));
    await expect(toast(juliaPage, "Proposta aceita. Negócio fechado!")).toBeVisible();
    await expect(juliaPage.locator(".badge.app-accepted").first()).toHaveText("Aceita");
    await expect(juliaPage.getByText(/Negócio fechado: R\$\s2\.000,00 com entrega em 15 dias\./)).toBeVisible();

    // With its one vacancy taken, the opportunity is filled.
    await page.goto(`/opportunities/${uuid}`);
    await expect(page.locator(".opp-detail .status-filled")).toHaveText("Preenchida");
    await expect(page.locator(".opp-detail .facts")).toContainText("1 de 1 preenchidas");

    // Pedro's application was rejected for it, and he is told why.
    await pedroPage.goto("/my-applications?status=rejected");
    const pedros = pedroPage.locator(".app-card").filter({ hasText: title });
    await expect(pedros.getByText("Encerrada")).toBeVisible();
    await expect(pedros.getByText("Recusada")).toHaveCount(0);
    await expect(pedros.getByText("vagas preenchidas")).toBeVisible();
    await expect(pedroPage.locator(".bell-count")).toHaveText("1");

    // Júlia's application is hers and the merchant's only; to Pedro it does not exist.
    const foreign = await pedroPage.goto(`/applications/${juliaApp}/negotiate`);
    expect(foreign?.status()).toBe(404);
    await expect(pedroPage.getByRole("heading", { name: "Página não encontrada" })).toBeVisible();
    const malformed = await pedroPage.goto("/applications/not-an-id!/negotiate");
    expect(malformed?.status()).toBe(404);

    // Opening the notification marks it read and leads to the application.
    await pedroPage.goto("/notifications");
    await pedroPage.getByRole("button", { name: new RegExp(`Sua candidatura a “${title}” foi recusada`) }).click();
    await expect(pedroPage).toHaveURL(/\/applications\/[0-9a-f-]{36}$/);
    await expect(pedroPage.getByText("Motivo: vagas preenchidas")).toBeVisible();
    await expect(pedroPage.locator(".bell-count")).toHaveCount(0);
  });

  test("a destructive action waits for its confirmation", async ({ page, browser }, testInfo) => {
    test.slow();
    const title = `Logo da confeitaria ${Date.now().toString(36)}`;
    const merchant = await register(page.request, "merchant", "Marina");
    const freelancer = await register(page.request, "freelancer", "Rafa");
    await logIn(page, merchant.email, merchant.password, "Marina");
    await postOpportunity(page, title);

    const rafa = await userPage(browser, testInfo, javaScriptEnabled);
    await logIn(rafa, freelancer.email, freelancer.password, "Rafa");
    const id = await apply(rafa, title, "900", "7");
    await rafa.goto(`/applications/${id}/negotiate`);

    // The first click only asks; going back leaves everything as it was.
    await rafa.getByRole("link", { name: "Retirar candidatura" }).click();
    await expect(rafa.getByRole("alertdialog")).toContainText("Retirar sua candidatura?");
    await rafa.getByRole("alertdialog").getByRole("link", { name: "Voltar" }).click();
    await expect(rafa.getByRole("alertdialog")).toHaveCount(0);
    await expect(rafa.getByText("Pendente · aguardando o contratante").first()).toBeVisible();

    await rafa.getByRole("link", { name: "Retirar candidatura" }).click();
    await rafa.getByRole("button", { name: "Sim, retirar" }).click();
    await expect(toast(rafa, "Candidatura retirada.")).toBeVisible();
    await expect(rafa.locator(".badge.app-withdrawn").first()).toHaveText("Retirada");
    await expect(rafa.getByRole("link", { name: "Retirar candidatura" })).toHaveCount(0);
  });
}

test.describe("the marketplace, with JavaScript", () => {
  test.use({ javaScriptEnabled: true });
  story(true);
});

test.describe("the marketplace, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  story(false);
});

test.describe("the opportunity and application forms report every error at once", () => {
  // Without JavaScript: the same forms posted in tests/marketplace/page-forms.test.ts.
  test("new opportunity, and an application (JavaScript on)", async ({ request, browser }, testInfo) => {
    test.slow();
    const merchant = await registerViaApi(request, { account_type: "merchant" });
    const page = await accountPage(browser, testInfo, true, merchant);
    await page.goto("/opportunities/create");
    await page.getByLabel("Título").fill("Site novo da padaria");
    await page.getByLabel("Descrição").fill("Site com cardápio, encomendas e botão de WhatsApp para a padaria.");
    await page.getByLabel("Categoria").selectOption("desenvolvimento");
    await page.getByLabel("Orçamento mínimo (R$)").fill("5.000,00");
    await page.getByLabel("Orçamento máximo (R$)").fill("1.000,00");
    await page.getByLabel("Prazo de entrega").fill("2020-01-10");
    await page.getByLabel("Local de trabalho").selectOption("onsite");
    await page.getByRole("button", { name: "Publicar oportunidade" }).click();
    // The fields' own problems and the rules across them, in one answer.
    const summary = page.locator(".error-summary");
    await expect(summary.getByRole("listitem")).toHaveText([
      "O orçamento máximo deve ser maior ou igual ao mínimo.",
      "O prazo deve ser a partir de hoje e em até dois anos.",
      "Informe a cidade para trabalhos presenciais ou híbridos.",
    ]);
    await expect(page.locator("#budget_max-error")).toHaveText("O orçamento máximo deve ser maior ou igual ao mínimo.");
    await expect(page.locator("#deadline-error")).toBeVisible();
    await expect(page.locator("#city-error")).toHaveText("Informe a cidade para trabalhos presenciais ou híbridos.");
    // A budget past the largest price names the allowed range.
    await page.getByLabel("Orçamento máximo (R$)").fill("99999999999999");
    await page.getByRole("button", { name: "Publicar oportunidade" }).click();
    await expect(page.locator("#budget_max-error")).toHaveText(
      "O orçamento máximo deve ser um valor entre R$ 0,01 e R$ 1.000.000,00.",
    );
    await expect(summary.getByRole("listitem")).toHaveCount(3);

    // An application: a short letter, a price that is not one and no days, all at once.
    const freelancer = await registerViaApi(request, { account_type: "freelancer" });
    const asMerchant = await apiToken(request, merchant.email, merchant.password);
    const opp = await request.post("/api/opportunities", {
      headers: asMerchant,
      data: {
        title: "Cardápio digital",
        description: "Cardápio digital com fotos dos produtos e preços atualizados.",
        category: "design",
        budget_type: "fixed",
        budget_min_cents: 50_000,
        budget_max_cents: 90_000,
        location_type: "remote",
      },
    });
    const { uuid } = (await opp.json()).data;
    const julia = await accountPage(browser, testInfo, true, freelancer);
    await julia.goto(`/opportunities/${uuid}`);
    await julia.getByLabel("Carta de apresentação").fill("Oi, topo!");
    await julia.getByLabel("Seu preço (R$)").fill("mil");
    await julia.getByRole("button", { name: "Enviar candidatura" }).click();
    await expect(julia.locator(".error-summary").getByRole("listitem")).toHaveText([
      "A carta de apresentação deve ter entre 20 e 5000 caracteres.",
      "Informe um valor em reais, como 1.500,00.",
      "O prazo de entrega deve ser entre 1 e 365 dias.",
    ]);
    await page.context().close();
    await julia.context().close();
  });
});

test.describe("an hourly price says /hora wherever it is asked or shown", () => {
  // Without JavaScript: the refused form keeps what was typed and draws the estimate from it
  // (tests/marketplace/page-forms.test.ts); counter and hire are the forms of the story without it.
  test("apply, negotiate, hire", async ({ request, browser }, testInfo) => {
    test.slow();
    const merchant = await registerViaApi(request, { account_type: "merchant", display_name: "Marina" });
    const freelancer = await registerViaApi(request, { account_type: "freelancer", display_name: "Julinha" });
    const asMerchant = await apiToken(request, merchant.email, merchant.password);
    const title = `Suporte por hora ${Date.now().toString(36)}`;
    const opp = await request.post("/api/opportunities", {
      headers: asMerchant,
      data: {
        title,
        description: "Atendimento aos clientes da loja pelo WhatsApp, de segunda a sexta.",
        category: "suporte",
        budget_type: "hourly",
        budget_min_cents: 4_000,
        budget_max_cents: 8_000,
        location_type: "remote",
      },
    });
    const { uuid } = (await opp.json()).data;

    const julia = await accountPage(browser, testInfo, true, freelancer);
    // A slow phone: the scripts arrive after the person has typed, and what was typed counts.
    let scriptsArrive = () => {};
    const held = new Promise<void>((resolve) => (scriptsArrive = resolve));
    await julia.route("**/build/**/*.js", (route) => held.then(() => route.continue()));
    await julia.goto(`/opportunities/${uuid}`, { waitUntil: "domcontentloaded" });
    const price = julia.getByLabel("Seu preço por hora (R$)");
    await expect(price).toHaveAttribute("placeholder", "60,00");
    await expect(julia.getByText("Em reais por hora, como 60,00")).toBeVisible();
    await price.fill("75,00");
    await julia.getByLabel("Prazo de entrega (dias)").fill("10");
    scriptsArrive();
    await expect(julia.locator(".price-estimate-line")).toHaveText(
      money("≈ R$ 6.000,00 em 10 dias de 8 h (estimativa)"),
    );
    await julia.getByLabel("Carta de apresentação").fill("Atendo lojas pelo WhatsApp há quatro anos, com educação.");
    await julia.getByRole("button", { name: "Enviar candidatura" }).click();
    await expect(julia).toHaveURL(/\/applications\/[0-9a-f-]{36}$/);
    // The address changes as the application page starts rendering, while the
    // opportunity's two lists of facts may still be on screen: wait for the application's.
    const proposal = julia.locator(".facts", { hasText: money("R$ 75,00/hora") });
    await expect(proposal).toBeVisible();
    await expect(proposal).toContainText(money("≈ R$ 6.000,00 em 10 dias de 8 h"));

    // The merchant compares and counters per hour.
    const marina = await accountPage(browser, testInfo, true, merchant);
    await marina.goto(`/opportunities/${uuid}/applications`);
    await expect(marina.locator(".app-card .price")).toHaveText(money("R$ 75,00/hora"));
    await marina.getByRole("link", { name: "Negociar" }).first().click();
    await expect(marina.getByLabel("Preço por hora (R$)")).toHaveValue("75,00");
    await marina.getByLabel("Preço por hora (R$)").fill("70,00");
    await marina.getByRole("button", { name: "Enviar contraproposta" }).click();
    await expect(marina.locator(".compare-current .compare-price")).toHaveText(money("R$ 70,00/hora"));
    await expect(marina.locator(".timeline-terms").last()).toContainText(money("R$ 70,00/hora"));

    // Hired per hour, after a step that says on which terms: the contract says so too.
    const id = julia.url().match(/\/applications\/([0-9a-f-]{36})/)![1];
    await julia.goto(`/applications/${id}/negotiate`);
    await julia.getByRole("link", { name: /Aceitar proposta \(R\$\s70,00\/hora\)/ }).click();
    const step = julia.getByRole("alertdialog", { name: "Aceitar a proposta de Marina?" });
    await expect(step).toContainText(money("R$ 70,00/hora, com entrega em 10 dias"));
    await expect(step).toContainText(money("≈ R$ 5.600,00 em 10 dias de 8 h"));
    await step.getByRole("button", { name: "Sim, aceitar e fechar negócio" }).click();
    await expect(julia).toHaveURL(new RegExp(`/applications/${id}$`));
    await julia.goto(`/contracts/${id}`);
    await expect(julia.locator(".facts")).toContainText(money("R$ 70,00/hora"));
    await julia.context().close();
    await marina.context().close();
  });
});

test.describe("no line of an opportunity card starts with a separator", () => {
  test("cards whose details wrap, at the desktop widths", async ({ request, browser }, testInfo) => {
    const merchant = await registerViaApi(request, { account_type: "merchant" });
    const freelancer = await registerViaApi(request, { account_type: "freelancer" });
    const asMerchant = await apiToken(request, merchant.email, merchant.password);
    const title = `Fachada da loja ${Date.now().toString(36)}`;
    await request.post("/api/opportunities", {
      headers: asMerchant,
      data: {
        title,
        description: "Pintura e letreiro novo para a fachada da loja, com aprovação da prefeitura.",
        category: "design",
        budget_type: "fixed",
        budget_min_cents: 100_000,
        budget_max_cents: 300_000,
        location_type: "onsite",
        city: "São José dos Campos do Norte, bairro Jardim das Indústrias",
        deadline: new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10),
      },
    });
    const page = await accountPage(browser, testInfo, true, freelancer);
    for (const width of [1024, 1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/opportunities?q=${encodeURIComponent(title)}`);
      const lines = await page.locator(".opp-card .meta-list").evaluateAll((lists) =>
        lists.map((list) => {
          const visible = list.getBoundingClientRect();
          const items = [...list.children].map((li) => {
            const r = li.getBoundingClientRect();
            const bullet = getComputedStyle(li, "::before");
            // The separator is placed from its item's right edge (`right`), just left of the item.
            const bulletRight = bullet.content === "none" ? null : r.right - parseFloat(bullet.right);
            return { left: r.left, bulletRight };
          });
          return { left: visible.left, clip: getComputedStyle(list).clipPath, items };
        }),
      );
      expect(lines.length).toBeGreaterThan(0);
      let wrapped = 0;
      for (const list of lines) {
        for (const [i, item] of list.items.entries()) {
          if (i === 0 || item.bulletRight === null) continue;
          const startsLine = Math.abs(item.left - list.left) < 1;
          if (startsLine) {
            wrapped += 1;
            // Its separator is left of the list, where the clip hides it.
            expect(item.bulletRight, `width ${width}`).toBeLessThanOrEqual(list.left + 0.5);
            expect(list.clip).not.toBe("none");
          } else {
            expect(item.bulletRight).toBeGreaterThan(list.left);
          }
        }
      }
      expect(wrapped, `a card wraps at ${width}`).toBeGreaterThan(0);
    }
    await page.context().close();
  });
});

test.describe("a refused apply form opens at its error summary", () => {
  // Without JavaScript (the page reloaded, autofocus): the story without it (above).
  test("the apply form, far down a phone's page", async ({ request, browser }, testInfo) => {
    const merchant = await registerViaApi(request, { account_type: "merchant" });
    const freelancer = await registerViaApi(request, { account_type: "freelancer" });
    const asMerchant = await apiToken(request, merchant.email, merchant.password);
    const opp = await request.post("/api/opportunities", {
      headers: asMerchant,
      data: {
        title: "Vídeo institucional da escola",
        description: "Um vídeo de dois minutos apresentando a escola, seus professores e alunos.".repeat(6),
        category: "video",
        skills: ["Filmagem", "Edição", "Roteiro"],
        budget_type: "fixed",
        budget_min_cents: 200_000,
        budget_max_cents: 400_000,
        location_type: "remote",
      },
    });
    const { uuid } = (await opp.json()).data;
    const page = await accountPage(browser, testInfo, true, freelancer);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/opportunities/${uuid}`);
    await page.getByLabel("Carta de apresentação").fill("curta");
    await page.getByRole("button", { name: "Enviar candidatura" }).click();
    const summary = page.locator(".error-summary");
    await expect(summary).toBeFocused();
    await expect(summary).toBeInViewport();
    // It names every problem, each a link to its field.
    await expect(summary.getByRole("link")).toHaveCount(3);
    for (const href of await summary.getByRole("link").evaluateAll((a) => a.map((l) => l.getAttribute("href")!))) {
      await expect(page.locator(href)).toHaveCount(1);
    }
    await summary.getByRole("link", { name: /carta de apresentação/ }).click();
    await expect(page.getByLabel("Carta de apresentação")).toBeInViewport();
    await page.context().close();
  });
});

test.describe("the candidates of an opportunity side by side, sortable", () => {
  // Without JavaScript (the Ordenar button's GET): tests/marketplace/compare-applications.test.ts.
  test("cover letter, price, days, rating and contracts; by price", async ({ request, browser }, testInfo) => {
    const merchant = await registerViaApi(request, { account_type: "merchant" });
    const asMerchant = await apiToken(request, merchant.email, merchant.password);
    const opp = await request.post("/api/opportunities", {
      headers: asMerchant,
      data: {
        title: `Cardápio digital ${Date.now().toString(36)}`,
        description: "Um cardápio digital para o restaurante, com fotos e preços atualizáveis.",
        category: "design",
        budget_type: "fixed",
        budget_min_cents: 100_000,
        budget_max_cents: 500_000,
        location_type: "remote",
      },
    });
    const { uuid } = (await opp.json()).data;
    for (const [name, price, days, letter] of [
      ["Bruna", 400_000, 10, "Faço cardápios para restaurantes há oito anos, com fotografia própria."],
      ["Caio", 200_000, 20, "Sou designer e desenvolvo cardápios digitais responsivos."],
    ] as const) {
      const who = await registerViaApi(request, { account_type: "freelancer", display_name: name });
      const asFreelancer = await apiToken(request, who.email, who.password);
      const applied = await request.post(`/api/opportunities/${uuid}/applications`, {
        headers: asFreelancer,
        data: { cover_letter: letter, price_cents: price, delivery_days: days },
      });
      expect(applied.status()).toBe(201);
    }
    const page = await accountPage(browser, testInfo, true, merchant);
    await page.goto(`/opportunities/${uuid}/applications`);
    const names = page.locator(".app-card-title");
    await expect(names).toHaveText(["Caio", "Bruna"]);
    // Each candidate's letter, terms, rating and completed contracts without opening it.
    const bruna = page.locator(".app-card").filter({ hasText: "Bruna" });
    await expect(bruna.locator(".app-card-letter")).toContainText("Faço cardápios para restaurantes");
    await expect(bruna).toContainText(money("R$ 4.000,00"));
    await expect(bruna).toContainText("10 dias");
    await expect(bruna).toContainText("Sem avaliações ainda");
    await expect(bruna).toContainText("Nenhum contrato concluído");
    await page.getByLabel("Ordenar por").selectOption("price");
    await expect(page).toHaveURL(/sort=price/);
    await expect(names).toHaveText(["Caio", "Bruna"]);
    await page.getByLabel("Ordenar por").selectOption("days");
    await expect(page).toHaveURL(/sort=days/);
    await expect(names).toHaveText(["Bruna", "Caio"]);
    await expect(page.getByLabel("Ordenar por")).toHaveValue("days");
    // The negotiation page has the letter too, beside the terms being answered.
    await page.locator(".app-card").filter({ hasText: "Caio" }).getByRole("link", { name: "Negociar" }).click();
    await expect(page.getByRole("region", { name: "Carta de apresentação" })).toContainText(
      "Sou designer e desenvolvo cardápios digitais responsivos.",
    );
    await page.context().close();
  });
});
