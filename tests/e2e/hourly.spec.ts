import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { bearerOf, fund, money, noAxeFindings, PNG_1X1, registerViaApi, toast, userPage } from "./support";

// An hourly contract as the two sides live it, paid by the manual Pix provider (project
// chromium-pix-manual): an hourly proposal hired by the API, the week paid by Pix (the operator
// confirms it), the freelancer logs time on the page and sends the week, the merchant approves
// it, and the freelancer sees it paid: the week's money on the page and its line in /financeiro.
// Without JavaScript, logging (a refusal on its fields, what was typed kept) and sending the week.

/** R$ 50,00 an hour up to 10 hours a week: the week's money is R$ 500,00. */
async function hourlyHire(request: APIRequestContext) {
  const merchant = await registerViaApi(request, { account_type: "merchant", display_name: "Marina" });
  const freelancer = await registerViaApi(request, { account_type: "freelancer", display_name: "Julinha" });
  const asMerchant = await bearerOf(request, merchant);
  const title = `Manutenção do site da padaria ${Date.now().toString(36)}`;
  const opp = await request.post("/api/opportunities", {
    headers: asMerchant,
    data: {
      title,
      description: "Correções semanais no site da padaria, com as horas lançadas dia a dia.",
      category: "desenvolvimento",
      skills: ["React"],
      budget_type: "hourly",
      budget_min_cents: 4_000,
      budget_max_cents: 8_000,
      location_type: "remote",
    },
  });
  expect(opp.status(), await opp.text()).toBe(201);
  const { uuid } = (await opp.json()).data;
  const applied = await request.post(`/api/opportunities/${uuid}/applications`, {
    headers: await bearerOf(request, freelancer),
    data: {
      cover_letter: "Cuido de sites de padarias e cafés há seis anos, por hora.",
      price_cents: 5_000,
      delivery_days: 30,
      weekly_cap_hours: 10,
    },
  });
  expect(applied.status(), await applied.text()).toBe(201);
  const { id } = (await applied.json()).data;
  const offers = (await (await request.get(`/api/applications/${id}`, { headers: asMerchant })).json()).data.offers;
  const accepted = await request.post(`/api/applications/${id}/accept`, {
    headers: asMerchant,
    data: { offer_id: offers[0].id },
  });
  expect(accepted.status()).toBe(200);
  return { merchant, freelancer, id: id as string, title };
}

test("hourly proposal → the week paid by Pix → time logged and sent → approved → paid in /financeiro", async ({
  request,
  browser,
}, testInfo) => {
  test.slow();
  const { merchant, freelancer, id, title } = await hourlyHire(request);
  const marina = await userPage(browser, testInfo, true, merchant);
  const julia = await userPage(browser, testInfo, true, freelancer);

  // Before the Pix: the merchant is asked to pay the week.
  await marina.goto(`/contracts/${id}`);
  const merchantWeek = marina.locator("#week");
  await expect(merchantWeek).toContainText(money("Pague a semana (R$ 500,00) por Pix"));
  await fund(request, id, merchant);

  // The freelancer logs 2 h 30 min and sends the week through its confirmation step.
  await julia.goto(`/contracts/${id}`);
  const week = julia.locator("#week");
  await expect(week).toContainText("Semana paga e aberta");
  const entry = julia.getByRole("region", { name: "Lançar horas" });
  await entry.getByLabel("Horas").fill("2");
  await entry.getByLabel("Minutos").fill("30");
  await entry.getByLabel("O que foi feito").fill("Corrigi o formulário de encomendas do site.");
  // With the entry, its optional file: its link shows in the week.
  await entry
    .getByLabel("Arquivo (opcional)")
    .setInputFiles({ name: "formulário.png", mimeType: "image/png", buffer: PNG_1X1 });
  await entry.getByRole("button", { name: "Lançar" }).click();
  await expect(toast(julia, "Horas lançadas.")).toBeVisible();
  await expect(week.getByRole("table")).toContainText("Corrigi o formulário de encomendas do site.");
  await expect(week.getByRole("link", { name: "Arquivo: formulário.png" })).toBeVisible();
  await expect(week).toContainText("2 h 30 min de 10 h");
  await noAxeFindings(julia);
  await week.getByRole("link", { name: "Enviar a semana para aprovação" }).click();
  const send = julia.getByRole("alertdialog", { name: "Enviar a semana (2 h 30 min)?" });
  await expect(send).toContainText(money("2 h 30 min liberam R$ 125,00"));
  await send.getByRole("button", { name: "Sim, enviar a semana" }).click();
  await expect(toast(julia, "Semana enviada ao contratante.")).toBeVisible();

  // The merchant approves: R$ 125,00 released, R$ 375,00 back.
  await marina.reload();
  await expect(merchantWeek).toContainText("O freelancer enviou a semana.");
  await expect(merchantWeek).toContainText(money("R$ 375,00"));
  // The merchant's side of the page: the sent week to review, the weeks, the weekly cap's form.
  await expect(marina.locator("#cap")).toBeVisible();
  await noAxeFindings(marina);
  await merchantWeek.getByRole("link", { name: money("Aprovar a semana e liberar R$ 125,00") }).click();
  const approve = marina.getByRole("alertdialog", { name: "Aprovar a semana?" });
  await approve.getByRole("button", { name: money("Sim, aprovar e liberar R$ 125,00") }).click();
  await expect(toast(marina, "Semana aprovada: o valor das horas foi liberado.")).toBeVisible();

  // The freelancer sees it paid: the week approved with its money, and the week's line in /financeiro.
  await julia.goto(`/contracts/${id}?semana=${await weekStart(request, id, freelancer)}`);
  await expect(week).toContainText("Semana aprovada: o valor das horas foi liberado para você.");
  await expect(week).toContainText(money("R$ 112,50 (taxa de R$ 12,50)"));
  await julia.goto("/financeiro");
  const lines = julia.getByRole("row").filter({ hasText: new RegExp(`Semana de \\d\\d/\\d\\d — ${title}`) });
  await expect(lines).toHaveCount(2);
  await expect(lines.filter({ hasText: "Pagamento recebido e retido" })).toContainText(money("R$ 500,00"));
  const approval = lines.filter({ hasText: "Semana aprovada" });
  await expect(approval).toContainText(money("R$ 112,50 ao freelancer · R$ 375,00 de volta ao contratante"));
  await noAxeFindings(julia);
});

/** The Monday of the contract's only funded week, as the API lists it. */
async function weekStart(
  request: APIRequestContext,
  id: string,
  who: { email: string; password: string; id?: string },
) {
  const weeks = await request.get(`/api/contracts/${id}/weeks`, { headers: await bearerOf(request, who) });
  return ((await weeks.json()).data as { week_start: string; status: string }[]).find((w) => w.status === "approved")!
    .week_start;
}

test("without JavaScript: an entry refused on its fields, then logged, and the week sent", async ({
  request,
  browser,
}, testInfo) => {
  const { merchant, freelancer, id } = await hourlyHire(request);
  await fund(request, id, merchant);
  const julia = await userPage(browser, testInfo, false, freelancer);
  await julia.goto(`/contracts/${id}`);
  const entry = julia.getByRole("region", { name: "Lançar horas" });
  await entry.getByLabel("Horas").fill("1");
  await entry.getByLabel("Minutos").fill("15");
  await entry.getByLabel("O que foi feito").fill("curta");
  // The browser's own check of minlength is bypassed by a plain post: the server answers on the field.
  await entry.locator("form").evaluate((form) => form.setAttribute("novalidate", ""));
  await entry.getByRole("button", { name: "Lançar" }).click();
  // On the field (its description) and in the form's summary, as a link to it.
  const error = "Descreva o que foi feito (de 10 a 2000 caracteres).";
  await expect(entry.getByLabel("O que foi feito")).toHaveAccessibleDescription(
    new RegExp(error.replace(/[()]/g, "\\$&")),
  );
  await expect(entry.getByRole("link", { name: error })).toHaveAttribute("href", "#description");
  await expect(entry.getByLabel("Horas")).toHaveValue("1");
  await expect(entry.getByLabel("Minutos")).toHaveValue("15");
  await entry.getByLabel("O que foi feito").fill("Atualizei os preços do cardápio no site.");
  await entry.getByRole("button", { name: "Lançar" }).click();
  await expect(toast(julia, "Horas lançadas.")).toBeVisible();
  const week = julia.locator("#week");
  await expect(week).toContainText("1 h 15 min de 10 h");
  await week.getByRole("link", { name: "Enviar a semana para aprovação" }).click();
  await julia
    .getByRole("alertdialog", { name: "Enviar a semana (1 h 15 min)?" })
    .getByRole("button", { name: "Sim, enviar a semana" })
    .click();
  await expect(toast(julia, "Semana enviada ao contratante.")).toBeVisible();
  await expect(week).toContainText("Semana enviada.");
  await expect(week.getByRole("region", { name: "Lançar horas" })).toHaveCount(0);
});

test("either side pauses the contract from the page, and the other resumes it", async ({
  request,
  browser,
}, testInfo) => {
  const { merchant, freelancer, id } = await hourlyHire(request);
  await fund(request, id, merchant);
  const julia = await userPage(browser, testInfo, true, freelancer);
  await julia.goto(`/contracts/${id}`);
  await julia.getByRole("link", { name: "Pausar o contrato" }).click();
  await julia
    .getByRole("alertdialog", { name: "Pausar este contrato por hora?" })
    .getByRole("button", { name: "Sim, pausar" })
    .click();
  await expect(toast(julia, "Contrato pausado: nenhuma semana nova começa até ele ser retomado.")).toBeVisible();
  await expect(julia.locator("#pause")).toContainText(/Pausado a partir da semana de \d+ de /);
  await noAxeFindings(julia);
  const marina = await userPage(browser, testInfo, true, merchant);
  await marina.goto(`/contracts/${id}`);
  await marina.getByRole("link", { name: "Retomar o contrato" }).click();
  await marina
    .getByRole("alertdialog", { name: "Retomar este contrato por hora?" })
    .getByRole("button", { name: "Sim, retomar" })
    .click();
  await expect(toast(marina, "Contrato retomado: as semanas voltam a abrir.")).toBeVisible();
  await expect(marina.getByRole("link", { name: "Pausar o contrato" })).toBeVisible();
});

test("the merchant keeps the week's unused money: the next week holds it and its Pix is for the rest", async ({
  request,
  browser,
}, testInfo) => {
  const { merchant, freelancer, id } = await hourlyHire(request);
  await fund(request, id, merchant);
  // 2 h 30 min logged and the week sent, by the API: R$ 125,00 released, R$ 375,00 unused.
  const asFreelancer = await bearerOf(request, freelancer);
  const start = await openWeek(request, id, freelancer);
  const today = new Date().toLocaleDateString("en-CA", { timeZone: "America/Sao_Paulo" });
  const logged = await request.post(`/api/contracts/${id}/weeks/${start}/entries`, {
    headers: asFreelancer,
    data: { day: today, minutes: 150, description: "Corrigi o formulário de encomendas do site." },
  });
  expect(logged.status(), await logged.text()).toBe(201);
  expect((await request.post(`/api/contracts/${id}/weeks/${start}/submit`, { headers: asFreelancer })).status()).toBe(
    200,
  );

  // The merchant keeps the unused money from the page, then approves the week.
  const marina = await userPage(browser, testInfo, true, merchant);
  await marina.goto(`/contracts/${id}`);
  const unused = marina.getByRole("region", { name: "Sobra da semana" });
  await expect(unused).toContainText("volta para você como estorno");
  await unused.getByRole("button", { name: "Guardar a sobra para a semana seguinte" }).click();
  await expect(toast(marina, "Escolha da sobra da semana salva.")).toBeVisible();
  await expect(unused.getByRole("button", { name: "Receber a sobra como estorno" })).toBeVisible();
  // The approval says where the unused money goes.
  await marina
    .locator("#week")
    .getByRole("link", { name: money("Aprovar a semana e liberar R$ 125,00") })
    .click();
  const approve = marina.getByRole("alertdialog", { name: "Aprovar a semana?" });
  await expect(approve).toContainText(money("R$ 375,00 ficam guardados para a semana seguinte"));
  await approve.getByRole("button", { name: money("Sim, aprovar e liberar R$ 125,00") }).click();
  await expect(toast(marina, "Semana aprovada: o valor das horas foi liberado.")).toBeVisible();

  // The next week holds the R$ 375,00 kept: its Pix is for R$ 125,00.
  await marina.reload();
  const week = marina.locator("#week");
  await expect(week).toContainText(money("Pague a semana (R$ 125,00) por Pix"));
  await expect(week).toContainText(money("R$ 375,00 guardados da semana de"));
  await expect(marina.getByRole("button", { name: money("Pagar R$ 125,00 com Pix") })).toBeVisible();
  await noAxeFindings(marina);
});

/** The Monday of the contract's open week, as the API lists it. */
async function openWeek(request: APIRequestContext, id: string, who: { email: string; password: string }) {
  const weeks = await request.get(`/api/contracts/${id}/weeks`, { headers: await bearerOf(request, who) });
  return ((await weeks.json()).data as { week_start: string; status: string }[]).find((w) => w.status === "open")!
    .week_start;
}
