import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiToken, completedContract, hire, money, PNG_1X1, toast, userPage, WIDTHS } from "./support";

// After the hire, as real users live it, once with JavaScript and once without: the freelancer
// delivers with a file, the merchant asks for changes, the freelancer delivers again and the
// merchant approves. The hire itself is made through the API (the marketplace story covers it).

function story() {
  test("hire → deliver → request changes → deliver → approve", async ({ hired, newUser, javaScriptEnabled }) => {
    // A long story (and the shared machine is slow): three times the usual time.
    test.slow();
    const { id, title } = hired;
    const marina = hired.merchant.page;
    const julia = hired.freelancer.page;

    // The merchant finds the contract from the sidebar.
    await marina.goto("/dashboard");
    await marina
      .getByRole("complementary", { name: "Menu principal" })
      .getByRole("link", { name: "Contratos" })
      .click();
    await expect(marina).toHaveURL(/\/contracts$/);
    await marina.locator(".app-card").filter({ hasText: title }).getByRole("link", { name: "Abrir contrato" }).click();
    await expect(marina).toHaveURL(new RegExp(`/contracts/${id}$`));
    await expect(marina.locator(".badge.contract-in_progress")).toHaveText("Em andamento");
    await expect(marina.locator(".facts")).toContainText(money("R$ 1.500,00"));
    await expect(marina.getByText("faltam 10 dias")).toBeVisible();
    await expect(marina.getByRole("button", { name: "Enviar entrega" })).toHaveCount(0);

    // The freelancer reaches it from the application, and delivers with a file.
    await julia.goto(`/applications/${id}`);
    await julia.getByRole("link", { name: "Abrir o contrato" }).click();
    await expect(julia).toHaveURL(new RegExp(`/contracts/${id}$`));
    await julia
      .getByLabel("Arquivos")
      .setInputFiles({ name: "logo final.png", mimeType: "image/png", buffer: PNG_1X1 });
    await julia.getByRole("button", { name: "Enviar entrega" }).click();
    await expect(julia.locator("#message-error")).toHaveText("Descreva a entrega: este campo é obrigatório.");
    await julia.getByLabel("Mensagem da entrega").fill("Seguem o logotipo e a paleta de cores.");
    await julia
      .getByLabel("Arquivos")
      .setInputFiles({ name: "logo final.png", mimeType: "image/png", buffer: PNG_1X1 });
    await julia.getByRole("button", { name: "Enviar entrega" }).click();
    await expect(toast(julia, "Entrega enviada!")).toBeVisible();
    await expect(julia.locator(".badge.contract-delivered")).toHaveText("Entregue");
    await expect(julia.getByRole("link", { name: /logo final\.png/ }).first()).toBeVisible();

    // The merchant's open contract page shows the delivery as it happens (live updates); without
    // JavaScript, on the next load.
    if (javaScriptEnabled) {
      await expect(marina.locator(".badge.contract-delivered")).toHaveText("Entregue", { timeout: 3_000 });
      await expect(marina.getByRole("link", { name: /logo final\.png/ }).first()).toBeVisible();
    } else {
      await expect(marina.locator(".badge.contract-in_progress")).toHaveText("Em andamento");
    }

    // The merchant sees the delivery and the countdown to its automatic approval, and asks for changes.
    await marina.goto(`/contracts/${id}`);
    await expect(marina.getByText(/aprovada automaticamente em 14 dias/)).toBeVisible();
    const fileHref = (await marina
      .getByRole("link", { name: /logo final\.png/ })
      .first()
      .getAttribute("href"))!;
    const download = await marina.request.get(fileHref);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toBe("image/png");
    await marina.getByRole("button", { name: "Pedir alterações" }).click();
    await expect(marina.locator("#message-error")).toHaveText(
      "Explique as alterações que você quer: este campo é obrigatório.",
    );
    await marina.getByLabel("O que precisa mudar").fill("Gostaria de uma versão do logotipo em fundo escuro.");
    await marina.getByRole("button", { name: "Pedir alterações" }).click();
    await expect(toast(marina, "Pedido de alterações enviado.")).toBeVisible();
    await expect(marina.locator(".badge.contract-in_progress")).toHaveText("Em andamento");

    // The freelancer is told, and delivers again.
    await julia.goto("/notifications");
    await julia.getByRole("button", { name: new RegExp(`Marina pediu alterações em “${title}”`) }).click();
    await expect(julia).toHaveURL(new RegExp(`/contracts/${id}$`));
    // The request is at the top of the page, with its text (and in the history too).
    await expect(julia.getByRole("region", { name: /Alterações pedidas em/ })).toContainText(
      "Gostaria de uma versão do logotipo em fundo escuro.",
    );
    await julia.getByLabel("Mensagem da entrega").fill("Versão em fundo escuro incluída.");
    await julia.getByRole("button", { name: "Enviar entrega" }).click();
    await expect(toast(julia, "Entrega enviada!")).toBeVisible();

    // The merchant approves: the contract is completed, with every round in its history.
    await marina.goto(`/contracts/${id}`);
    // Approving ends the contract: a step first says so, with the amount agreed.
    await marina.getByRole("link", { name: "Aprovar entrega" }).click();
    const step = marina.getByRole("alertdialog", { name: "Aprovar esta entrega?" });
    await expect(step).toContainText("encerra o contrato como concluído");
    await expect(step).toContainText(money("Valor combinado: R$ 1.500,00"));
    await step.getByRole("button", { name: "Sim, aprovar e concluir" }).click();
    await expect(toast(marina, "Entrega aprovada. Contrato concluído!")).toBeVisible();
    await expect(marina.locator(".badge.contract-completed")).toHaveText("Concluído");
    await expect(marina.locator(".timeline-item")).toHaveCount(5);
    // What is left is the review, offered where the actions are (not "nothing to do" above it).
    await expect(marina.getByText("Nenhuma ação disponível para você neste momento.")).toHaveCount(0);
    await expect(marina.getByRole("link", { name: "Avaliar Julinha" })).toBeVisible();

    // The dashboard counts the value completed in the last 30 days.
    await marina.goto("/dashboard");
    await expect(
      marina.locator(".figure").filter({ hasText: "Combinado nos contratos concluídos (últimos 30 dias)" }),
    ).toContainText(money("R$ 1.500,00"));

    // Nobody else sees the contract or its files.
    const other = (await newUser("freelancer")).page;
    expect((await other.goto(`/contracts/${id}`))?.status()).toBe(404);
    expect((await other.request.get(fileHref)).status()).toBe(404);
  });
}

test.describe("contracts, with JavaScript", () => {
  story();
});

test.describe("contracts, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  story();
});

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

test.describe("the dashboards' money stays inside its card", () => {
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

test.describe("opening a contract or an application reads its notifications", () => {
  // Without JavaScript (the whole page loaded): tests/messaging/notifications.test.ts.
  test("however the record is reached", async ({ request, browser }, testInfo) => {
    const { merchant, freelancer, id, title } = await hire(request);
    const asFreelancer = await apiToken(request, freelancer.email, freelancer.password);
    await request.post(`/api/contracts/${id}/deliveries`, { headers: asFreelancer, data: { message: "Pronto." } });
    // Unread for the merchant: the application received, and the delivery.
    const page = await userPage(browser, testInfo, true, merchant);
    await page.goto("/dashboard");
    const bell = page.locator(".bell-menu summary");
    await expect(bell).toHaveAccessibleName("Notificações: 2 não lidas");
    // The contract, from the contracts list (not from the bell): its delivery is read.
    await page.getByRole("complementary", { name: "Menu principal" }).getByRole("link", { name: "Contratos" }).click();
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
});

test.describe("an empty change request says the field is required", () => {
  // Without JavaScript: the form posted in tests/marketplace/page-forms.test.ts.
  test("JavaScript on", async ({ request, browser }, testInfo) => {
    const { merchant, freelancer, id } = await hire(request);
    const asFreelancer = await apiToken(request, freelancer.email, freelancer.password);
    await request.post(`/api/contracts/${id}/deliveries`, { headers: asFreelancer, data: { message: "Pronto." } });
    const page = await userPage(browser, testInfo, true, merchant);
    await page.goto(`/contracts/${id}`);
    await page.getByRole("button", { name: "Pedir alterações" }).click();
    await expect(page.locator("#message-error")).toHaveText(
      "Explique as alterações que você quer: este campo é obrigatório.",
    );
    await page.context().close();
  });
});

test.describe("the changes asked for are at the top of the contract, with their text", () => {
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
