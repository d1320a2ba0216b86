import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { apiToken, hire, registerViaApi, userPage } from "./support";

// What a newcomer trips over in a first week, as merchant and freelancer, checked the way they
// see it: in the browser, with JavaScript on and off where a form is involved, at the widths people
// use (a phone, a small laptop, the usual desktops).

const WIDTHS = [390, 1024, 1280, 1440] as const;

/** Money as Intl writes it, with a no-break space after "R$". */
const money = (text: string) => new RegExp(text.replace(/[.$()+?*[\]\\]/g, "\\$&").replace(/ /g, "\\s"));

/**
 * The elements of each `card` that are drawn past the card's edges (text that spills out makes
 * its element wider than the card), as "card: element" lines; none is right.
 */
async function spilled(page: Page, card: string) {
  return page.locator(card).evaluateAll((cards) =>
    cards.flatMap((c, i) => {
      const box = c.getBoundingClientRect();
      return [...c.querySelectorAll("*")]
        .map((el) => ({ el, r: el.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 0 && r.height > 0)
        .filter(({ r }) => r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.bottom > box.bottom + 0.5)
        .map(
          ({ el, r }) =>
            `${i}: <${el.tagName.toLowerCase()} ${el.className}> ${r.left}–${r.right} in ${box.left}–${box.right}`,
        );
    }),
  );
}

/** A contract between two new accounts at `priceCents`, delivered and approved (completed). */
async function completedContract(request: APIRequestContext, priceCents: number) {
  const merchant = await registerViaApi(request, { account_type: "merchant", display_name: "Marina" });
  const freelancer = await registerViaApi(request, { account_type: "freelancer", display_name: "Julinha" });
  const asMerchant = await apiToken(request, merchant.email, merchant.password);
  const asFreelancer = await apiToken(request, freelancer.email, freelancer.password);
  const opp = await request.post("/api/opportunities", {
    headers: asMerchant,
    data: {
      title: `Sistema completo ${Date.now().toString(36)}`,
      description: "Um sistema de gestão completo, do cadastro de clientes ao financeiro.",
      category: "desenvolvimento",
      budget_type: "fixed",
      budget_min_cents: 1_000_000,
      budget_max_cents: 100_000_000,
      location_type: "remote",
    },
  });
  const { uuid } = (await opp.json()).data;
  const app = await request.post(`/api/opportunities/${uuid}/applications`, {
    headers: asFreelancer,
    data: { cover_letter: "Construo sistemas de gestão há dez anos.", price_cents: priceCents, delivery_days: 90 },
  });
  const { id } = (await app.json()).data;
  const offers = (await (await request.get(`/api/applications/${id}`, { headers: asMerchant })).json()).data.offers;
  await request.post(`/api/applications/${id}/accept`, { headers: asMerchant, data: { offer_id: offers[0].id } });
  const delivered = await request.post(`/api/contracts/${id}/deliveries`, {
    headers: asFreelancer,
    data: { message: "Sistema entregue." },
  });
  expect(delivered.status()).toBe(201);
  expect((await request.post(`/api/contracts/${id}/approve`, { headers: asMerchant })).status()).toBe(200);
  return { merchant, freelancer, id };
}

test.describe("defect 1: money stays inside its dashboard card", () => {
  test("R$ 999.999,99 completed, on both dashboards, at every width", async ({ request, browser }, testInfo) => {
    test.slow();
    const { merchant, freelancer } = await completedContract(request, 99_999_999);
    for (const who of [merchant, freelancer]) {
      const page = await userPage(browser, testInfo, true, who);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto("/dashboard");
        await expect(page.locator(".figure-money .figure-value")).toHaveText(money("R$ 999.999,99"));
        expect(await spilled(page, ".figure"), `width ${width}`).toEqual([]);
      }
      await page.context().close();
    }
  });
});

test.describe("defect 2: opening a record reads its notifications", () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`however the record is reached (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
      request,
      browser,
    }, testInfo) => {
      const { merchant, freelancer, id, title } = await hire(request);
      const asFreelancer = await apiToken(request, freelancer.email, freelancer.password);
      await request.post(`/api/contracts/${id}/deliveries`, { headers: asFreelancer, data: { message: "Pronto." } });
      // Unread for the merchant: the application received, and the delivery.
      const page = await userPage(browser, testInfo, javaScriptEnabled, merchant);
      await page.goto("/dashboard");
      const bell = page.locator(".bell-menu summary");
      await expect(bell).toHaveAccessibleName("Notificações: 2 não lidas");
      // The contract, from the contracts list (not from the bell): its delivery is read.
      await page
        .getByRole("complementary", { name: "Menu principal" })
        .getByRole("link", { name: "Contratos" })
        .click();
      await page.locator(".app-card").filter({ hasText: title }).getByRole("link", { name: "Abrir contrato" }).click();
      await expect(page).toHaveURL(new RegExp(`/contracts/${id}$`));
      await expect(bell).toHaveAccessibleName("Notificações: 1 não lida");
      // The application, from the contract's page: the rest.
      await page.getByRole("link", { name: "Ver candidatura" }).click();
      await expect(page).toHaveURL(new RegExp(`/applications/${id}$`));
      await expect(bell).toHaveAccessibleName("Notificações");
      await expect(page.locator(".bell-count")).toHaveCount(0);
      await page.context().close();
    });
  }
});

test.describe("defect 3: every form reports every error at once", () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`new opportunity, and an application (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
      request,
      browser,
    }, testInfo) => {
      test.slow();
      const merchant = await registerViaApi(request, { account_type: "merchant" });
      const page = await userPage(browser, testInfo, javaScriptEnabled, merchant);
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
      await expect(page.locator("#budget_max-error")).toHaveText(
        "O orçamento máximo deve ser maior ou igual ao mínimo.",
      );
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
      const julia = await userPage(browser, testInfo, javaScriptEnabled, freelancer);
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
  }
});

test.describe("defect 4: an empty change request says the field is required", () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, async ({ request, browser }, testInfo) => {
      const { merchant, freelancer, id } = await hire(request);
      const asFreelancer = await apiToken(request, freelancer.email, freelancer.password);
      await request.post(`/api/contracts/${id}/deliveries`, { headers: asFreelancer, data: { message: "Pronto." } });
      const page = await userPage(browser, testInfo, javaScriptEnabled, merchant);
      await page.goto(`/contracts/${id}`);
      await page.getByRole("button", { name: "Pedir alterações" }).click();
      await expect(page.locator("#message-error")).toHaveText(
        "Explique as alterações que você quer: este campo é obrigatório.",
      );
      await page.context().close();
    });
  }
});

test.describe("defect 5: an hourly price says /hora wherever it is asked or shown", () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`apply, negotiate, hire (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
      request,
      browser,
    }, testInfo) => {
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

      const julia = await userPage(browser, testInfo, javaScriptEnabled, freelancer);
      await julia.goto(`/opportunities/${uuid}`);
      const price = julia.getByLabel("Seu preço por hora (R$)");
      await expect(price).toHaveAttribute("placeholder", "60,00");
      await expect(julia.getByText("Em reais por hora, como 60,00")).toBeVisible();
      await price.fill("75,00");
      await julia.getByLabel("Prazo de entrega (dias)").fill("10");
      if (!javaScriptEnabled) {
        // Without JavaScript the estimate comes with the page, from what was typed.
        await julia.getByRole("button", { name: "Enviar candidatura" }).click();
        await expect(julia.locator("#cover_letter-error")).toBeVisible();
      }
      await expect(julia.locator(".price-estimate-line")).toHaveText(
        money("≈ R$ 6.000,00 em 10 dias de 8 h (estimativa)"),
      );
      await julia.getByLabel("Carta de apresentação").fill("Atendo lojas pelo WhatsApp há quatro anos, com educação.");
      await julia.getByRole("button", { name: "Enviar candidatura" }).click();
      await expect(julia).toHaveURL(/\/applications\/[0-9a-f-]{36}$/);
      // With JavaScript the address changes as the application page starts rendering, while the
      // opportunity's two lists of facts may still be on screen: wait for the application's.
      const proposal = julia.locator(".facts", { hasText: money("R$ 75,00/hora") });
      await expect(proposal).toBeVisible();
      await expect(proposal).toContainText(money("≈ R$ 6.000,00 em 10 dias de 8 h"));

      // The merchant compares and counters per hour.
      const marina = await userPage(browser, testInfo, javaScriptEnabled, merchant);
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
  }
});

test.describe("defect 6: no line of an opportunity card starts with a separator", () => {
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
    const page = await userPage(browser, testInfo, true, freelancer);
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

test.describe("defect 11: a refused form opens at its error summary", () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`the apply form, far down a phone's page (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
      request,
      browser,
    }, testInfo) => {
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
      const page = await userPage(browser, testInfo, javaScriptEnabled, freelancer);
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
  }
});

/** Whether two boxes share any area. */
function overlaps(a: DOMRectLike, b: DOMRectLike) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
type DOMRectLike = { x: number; y: number; width: number; height: number };

test.describe("defect 9: the top bar at a phone's width, and toasts beside it", () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`titles whole, toasts off the switch, the bell and the name (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
      request,
      browser,
    }, testInfo) => {
      test.slow();
      const merchant = await registerViaApi(request, { account_type: "merchant", display_name: "Marina" });
      const freelancer = await registerViaApi(request, { account_type: "freelancer", display_name: "Julinha" });
      const pages = { merchant: ["/", "/applications/awaiting-confirmation"], freelancer: ["/", "/my-applications"] };
      for (const [who, account] of [
        ["merchant", merchant],
        ["freelancer", freelancer],
      ] as const) {
        const page = await userPage(browser, testInfo, javaScriptEnabled, account);
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 844 });
          for (const path of pages[who]) {
            await page.goto(path);
            // The title is whole: not cut by an ellipsis nor by the bar's height.
            const title = page.locator(".topbar-title");
            const cut = await title.evaluate(
              (el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight,
            );
            expect(cut, `${who} ${path} at ${width}px: "${await title.textContent()}" is cut`).toBe(false);
          }
          // A toast (the welcome after signing in) leaves the top bar's controls uncovered.
          await page.goto("/login");
          await page.context().clearCookies();
          await page.goto("/login");
          await page.getByLabel("E-mail").fill(account.email);
          await page.getByLabel("Senha").fill(account.password);
          await page.getByRole("button", { name: "Entrar", exact: true }).click();
          const toast = page.getByRole("status").filter({ hasText: "Bem-vindo(a)" });
          await expect(toast).toBeVisible();
          const toastBox = (await toast.boundingBox())!;
          for (const control of [
            ".topbar .language-switch",
            ".topbar .bell-menu summary",
            ".topbar .user-menu summary",
          ]) {
            const box = (await page.locator(control).boundingBox())!;
            expect(overlaps(toastBox, box), `the toast covers ${control} at ${width}px`).toBe(false);
          }
        }
        await page.context().close();
      }
    });
  }
});

test.describe("friction 5: registering signs in (the login page is not in the way)", () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, async ({ browser }, testInfo) => {
      const { baseURL, locale, timezoneId } = testInfo.project.use;
      const context = await browser.newContext({ baseURL, locale, timezoneId, javaScriptEnabled });
      const page = await context.newPage();
      const email = `nova.${Date.now().toString(36)}@example.com`;
      await page.goto("/register");
      await page.getByText("Contratante", { exact: true }).click();
      await page.getByLabel("Nome completo").fill("Beatriz Nova");
      await page.getByLabel("E-mail").fill(email);
      await page.getByLabel("Senha").fill("senha-segura-1");
      await page.getByRole("button", { name: "Criar conta" }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole("status").filter({ hasText: "Conta criada!" })).toBeVisible();
      await expect(page.getByText("Olá, Beatriz Nova")).toBeVisible();
      // The address never carries the e-mail.
      expect(page.url()).not.toContain("example.com");
      await context.close();
    });
  }
});

test.describe("friction 4: a profile checklist on the dashboard until the profile is complete", () => {
  test("a new freelancer and a new merchant each see their steps", async ({ request, browser }, testInfo) => {
    for (const account_type of ["freelancer", "merchant"] as const) {
      const who = await registerViaApi(request, { account_type });
      const page = await userPage(browser, testInfo, true, who);
      await page.goto("/dashboard");
      const checklist = page.locator(".checklist-card");
      await expect(checklist.getByRole("heading", { name: "Complete seu perfil" })).toBeVisible();
      await expect(checklist.getByRole("listitem")).toHaveCount(account_type === "freelancer" ? 4 : 3);
      // Each step leads to where it is filled in.
      await checklist.getByRole("link").first().click();
      await expect(page).toHaveURL(/\/pages\/profile-setting/);
      await page.context().close();
    }
  });
});

test.describe("defect 8: e-mail settings offer one Portuguese and each side its own kinds", () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`merchant and freelancer (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
      request,
      browser,
    }, testInfo) => {
      const own = { merchant: "Nova candidatura numa oportunidade sua", freelancer: "Convite para uma oportunidade" };
      const kind = { merchant: "application_received", freelancer: "invitation_received" };
      for (const [role, other] of [
        ["merchant", "freelancer"],
        ["freelancer", "merchant"],
      ] as const) {
        const who = await registerViaApi(request, { account_type: role });
        const page = await userPage(browser, testInfo, javaScriptEnabled, who);
        await page.goto("/pages/profile-setting#email");
        const form = page.locator("#email-settings-form");
        const language = form.getByLabel("Idioma dos e-mails");
        await expect(language.locator("option")).toHaveText(["Português (Brasil)", "English"]);
        await expect(language).toHaveValue("pt-BR");
        await expect(form.getByLabel(own[role])).toBeChecked();
        await expect(form.getByLabel(own[other])).toHaveCount(0);
        // Saved without one of its kinds and in English, the form shows what was saved.
        await form.getByLabel(own[role]).uncheck();
        await language.selectOption("en");
        await form.getByRole("button", { name: "Salvar preferências de e-mail" }).click();
        await expect(page.getByRole("status").filter({ hasText: /prefer/i })).toBeVisible();
        await page.goto("/pages/profile-setting#email");
        await expect(page.locator("#email-settings-form select[name=locale]")).toHaveValue("en");
        await expect(page.locator(`#email-settings-form input[value=${kind[role]}]`)).not.toBeChecked();
        await page.context().close();
      }
    });
  }
});

test.describe("defect 7: Meu Perfil shows what others see, and links to it", () => {
  test("a freelancer with a completed contract, and a merchant without skills", async ({
    request,
    browser,
  }, testInfo) => {
    test.slow();
    const { merchant, freelancer } = await completedContract(request, 150_000);
    for (const [who, kind] of [
      [freelancer, "freelancers"],
      [merchant, "merchants"],
    ] as const) {
      const page = await userPage(browser, testInfo, true, who);
      await page.goto("/profile");
      const mine = await page.locator(".details dt").allTextContents();
      const sections = await page.locator("h3").allTextContents();
      await page.getByRole("link", { name: "Ver como os outros me veem" }).click();
      await expect(page).toHaveURL(new RegExp(`/${kind}/[0-9a-f-]{36}$`));
      // The address changes a moment before the new page is drawn: wait for it to be gone.
      await expect(page.getByRole("link", { name: "Ver como os outros me veem" })).toHaveCount(0);
      const theirs = await page.locator(".details dt").allTextContents();
      // Everything the public profile shows, Meu Perfil shows too (and the e-mail, for its owner only).
      expect(mine).toEqual(expect.arrayContaining(theirs));
      expect(mine).toContain("E-mail");
      expect(theirs).not.toContain("E-mail");
      expect(sections).toEqual(expect.arrayContaining(await page.locator("h3").allTextContents()));
      expect(theirs).toContain("Contratos concluídos");
      if (kind === "freelancers") expect(sections).toContain("Portfólio");
      // A merchant who listed no skills has no "Habilidades: nenhuma" on either page.
      else expect(theirs).not.toContain("Habilidades");
      await page.context().close();
    }
  });
});

test.describe("friction 3: the candidates of an opportunity side by side, sortable", () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`cover letter, price, days, rating and contracts; by price (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
      request,
      browser,
    }, testInfo) => {
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
      const page = await userPage(browser, testInfo, javaScriptEnabled, merchant);
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
      if (!javaScriptEnabled) await page.getByRole("button", { name: "Ordenar", exact: true }).click();
      await expect(page).toHaveURL(/sort=price/);
      await expect(names).toHaveText(["Caio", "Bruna"]);
      await page.getByLabel("Ordenar por").selectOption("days");
      if (!javaScriptEnabled) await page.getByRole("button", { name: "Ordenar", exact: true }).click();
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
  }
});

test.describe("friction 2: the changes asked for are at the top of the contract, with their text", () => {
  test("the freelancer's and the merchant's contract page, phone and desktop", async ({
    request,
    browser,
  }, testInfo) => {
    const { merchant, freelancer, id } = await hire(request);
    const asMerchant = await apiToken(request, merchant.email, merchant.password);
    const asFreelancer = await apiToken(request, freelancer.email, freelancer.password);
    const ask = "Por favor, troque a fonte do logotipo por uma serifada e aumente o contraste.";
    expect(
      (
        await request.post(`/api/contracts/${id}/deliveries`, {
          headers: asFreelancer,
          data: { message: "Primeira versão." },
        })
      ).status(),
    ).toBe(201);
    expect(
      (
        await request.post(`/api/contracts/${id}/change-requests`, { headers: asMerchant, data: { message: ask } })
      ).status(),
    ).toBe(201);
    for (const who of [freelancer, merchant]) {
      const page = await userPage(browser, testInfo, true, who);
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 844 });
        await page.goto(`/contracts/${id}`);
        const asked = page.getByRole("region", { name: /Alterações pedidas em/ });
        await expect(asked).toContainText(ask);
        // The first thing of the contract's body, not the history column.
        await expect(asked).toBeInViewport();
        expect((await asked.boundingBox())!.y).toBeLessThan((await page.locator("#terms-title").boundingBox())!.y);
      }
      if (who === freelancer) {
        await expect(page.getByText("Trabalho em andamento")).toHaveCount(0);
        await expect(page.getByText("Alterações pedidas: ajuste o trabalho")).toBeVisible();
      }
      await page.context().close();
    }
    // Once delivered again, the request is history.
    await request.post(`/api/contracts/${id}/deliveries`, { headers: asFreelancer, data: { message: "Nova versão." } });
    const page = await userPage(browser, testInfo, false, freelancer);
    await page.goto(`/contracts/${id}`);
    await expect(page.getByRole("region", { name: /Alterações pedidas em/ })).toHaveCount(0);
    await page.context().close();
  });
});
