import { expect, test } from "./fixtures";
import { OPERATOR, toast, userPage } from "./support";

// A report as people live it (with JavaScript; the forms as posted without it are
// tests/operator/moderation-page.test.ts's): the freelancer reports the
// merchant's opportunity, the operator of the demo data hides it from the console's queue, the
// merchant sees it hidden and why, and nobody else finds it any more.

const WHY = "Pede pagamento por fora da plataforma, contra as regras do Freela.";

function story() {
  test("report → hide → the author sees why, and the others no longer find it", async ({
    hired,
    newUser,
    browser,
    javaScriptEnabled,
  }, testInfo) => {
    test.setTimeout(180_000);
    const { title, opportunity } = hired;
    const marina = hired.merchant.page;
    const julia = hired.freelancer.page;

    // The freelancer reports the opportunity from its page; a report needs a reason.
    await julia.goto(`/opportunities/${opportunity}`);
    await julia.getByRole("link", { name: "Denunciar uma oportunidade" }).click();
    await expect(julia.getByRole("heading", { name: /^Denunciar a oportunidade «.+»$/ })).toBeVisible();
    await julia.getByLabel("Comentário (opcional)").fill("Pediu o pagamento por Pix direto, fora do Freela.");
    await julia.getByRole("button", { name: "Enviar denúncia" }).click();
    await expect(julia.getByRole("alert").first()).toBeVisible();
    // What was typed is still there.
    await expect(julia.getByLabel("Comentário (opcional)")).toHaveValue(
      "Pediu o pagamento por Pix direto, fora do Freela.",
    );
    await julia.getByLabel("Pede pagamento ou contato fora do Freela").check();
    await julia.getByRole("button", { name: "Enviar denúncia" }).click();
    // The report lands on its confirmation, whose way back leads where the user was.
    await expect(julia.getByRole("heading", { name: "Denúncia enviada" })).toBeVisible();
    await expect(julia.getByRole("status").filter({ hasText: "Recebemos sua denúncia" })).toBeVisible();
    await julia.getByRole("link", { name: "Voltar" }).click();
    await expect(julia).toHaveURL(new RegExp(`/opportunities/${opportunity}$`));

    // The opportunity filled with the hire: someone who did not apply reads that it did (410),
    // not that the address does not exist.
    const rafael = (await newUser("freelancer")).page;
    const filled = await rafael.goto(`/opportunities/${opportunity}`);
    expect(filled?.status()).toBe(410);
    await expect(rafael.getByRole("heading", { name: title })).toBeVisible();
    await expect(rafael.getByText("Esta oportunidade já foi preenchida")).toBeVisible();
    await expect(rafael.getByText(/não existe/)).toHaveCount(0);

    // The operator finds it in the queue and hides it, with a reason the author will read.
    const olga = await userPage(browser, testInfo, javaScriptEnabled, OPERATOR);
    try {
      // The console opens at the overview: what waits, and the marketplace's last 30 days.
      await olga.goto("/admin");
      await expect(olga.getByRole("heading", { name: "Esperando o operador" })).toBeVisible();
      await expect(olga.getByRole("link", { name: /denúncias abertas/ })).toBeVisible();
      await expect(olga.getByRole("heading", { name: "Últimos 30 dias" })).toBeVisible();
      await olga.getByRole("link", { name: "90 dias" }).click();
      await expect(olga.getByRole("heading", { name: "Últimos 90 dias" })).toBeVisible();
      await expect(olga.getByRole("img", { name: /^Candidaturas por dia: \d+ no período$/ })).toBeVisible();
      await olga.getByRole("link", { name: /denúncias abertas/ }).click();
      await expect(olga).toHaveURL(/\/admin\/reports$/);
      await olga.getByRole("link", { name: `Oportunidade · ${title}` }).click();
      await expect(olga.getByText("Pediu o pagamento por Pix direto")).toBeVisible();
      await olga.getByRole("radio", { name: "Ocultar o conteúdo" }).check();
      await olga.getByRole("button", { name: "Registrar" }).click();
      await expect(olga.locator("#reason-error")).toBeVisible();
      await olga.getByRole("radio", { name: "Ocultar o conteúdo" }).check();
      await olga.getByLabel("Motivo", { exact: true }).fill(WHY);
      await olga.getByRole("button", { name: "Registrar" }).click();
      await expect(toast(olga, "Denúncias resolvidas.")).toBeVisible();
    } finally {
      await olga.context().close();
    }

    // The author still sees the opportunity, hidden, and why.
    await marina.goto(`/opportunities/${opportunity}`);
    const notice = marina.locator(".notice", {
      hasText: "A equipe do Freela ocultou esta oportunidade: só você a vê.",
    });
    await expect(notice).toContainText(`Motivo: ${WHY}`);
    // And was told: a notification names the opportunity.
    await marina.goto("/notifications");
    await expect(
      marina.getByRole("main").getByText(`A equipe do Freela ocultou sua oportunidade “${title}”.`),
    ).toBeVisible();

    // Nobody else finds it: not by its address, not in the search.
    const answer = await julia.goto(`/opportunities/${opportunity}`);
    expect(answer?.status()).toBe(404);
    expect((await rafael.goto(`/opportunities/${opportunity}`))?.status()).toBe(404);
    await julia.goto(`/opportunities?${new URLSearchParams({ q: title })}`);
    await expect(julia.getByRole("link", { name: title })).toHaveCount(0);
  });
}

test.describe("moderation, with JavaScript", () => {
  story();
});
