import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createOpportunity } from "../../db/factories";
import { feeOf } from "~/lib/fees";
import * as applyRoute from "~/routes/api+/opportunities+/$uuid.applications";
import * as applicationRoute from "~/routes/api+/applications+/$id";
import * as offersRoute from "~/routes/api+/applications+/$id.offers";
import * as acceptRoute from "~/routes/api+/applications+/$id.accept";
import * as contractRoute from "~/routes/api+/contracts+/$id";
import * as deliverRoute from "~/routes/api+/contracts+/$id.deliveries";
import * as chargesRoute from "~/routes/api+/contracts+/$id.charges";
import * as weeksRoute from "~/routes/api+/contracts+/$id.weeks";
import * as weekRoute from "~/routes/api+/contracts+/$id.weeks.$week";
import * as entriesRoute from "~/routes/api+/contracts+/$id.weeks.$week.entries";
import * as entryRoute from "~/routes/api+/contracts+/$id.entries.$entry";
import * as csvRoute from "~/routes/api+/contracts+/$id.weeks.$week.entries[.]csv";
import * as submitRoute from "~/routes/api+/contracts+/$id.weeks.$week.submit";
import * as approveRoute from "~/routes/api+/contracts+/$id.weeks.$week.approve";
import * as endRoute from "~/routes/api+/contracts+/$id.end";
import { confirmReceipt } from "~/services/payments/charges.server";
import { account, balanceOf, checkLedger } from "~/services/payments/ledger.server";
import { createVerifiedIdentity } from "../../db/factories";
import { call, jsonRequest, signedInUser } from "../support/helpers";
import { e2eId, operator } from "../payments/support";
import { hourlyClock, MONDAY } from "./hourly-support";

// Hourly contracts by the API alone (docs/product.md §7): an hourly proposal with its weekly cap,
// the hire, the week funded by the contract's charge, time logged, submitted and approved.

type Who = { token: string };
const request = (
  handler: any,
  method: string,
  path: string,
  who: Who | undefined,
  params: Record<string, string>,
  body?: unknown,
) => call(handler, jsonRequest(path, body, { token: who?.token, method }), params);

const entry = { day: MONDAY, minutes: 150, description: "Modelei o banco de dados do app." };

hourlyClock();

/** An hourly proposal (R$ 80,00 an hour, up to 20 h a week) countered and accepted by the API. */
async function hourlyHire() {
  const m = await signedInUser({ account_type: "merchant" });
  const f = await signedInUser({ account_type: "freelancer" });
  await createVerifiedIdentity(db, m.user.id);
  const opp = await createOpportunity(db, { merchant_id: m.user.id, budget_type: "hourly" });
  const applyPath = `/api/opportunities/${opp.uuid}/applications`;
  const letter = "Olá! Trabalho com React há seis anos e posso começar já nesta semana.";
  const applied = await request(
    applyRoute.action,
    "POST",
    applyPath,
    f,
    { uuid: opp.uuid },
    {
      cover_letter: letter,
      price_cents: 9_000,
      delivery_days: 30,
      weekly_cap_hours: 20,
    },
  );
  expect(applied.status).toBe(201);
  expect(applied.body.data).toMatchObject({ price_cents: 9_000, weekly_cap_hours: 20 });
  const id = { id: applied.body.data.id };
  const path = `/api/applications/${id.id}`;
  // The merchant counters the rate, leaving the cap as it is.
  const countered = await request(offersRoute.action, "POST", `${path}/offers`, m, id, {
    price_cents: 8_000,
    delivery_days: 30,
  });
  expect(countered.status).toBe(201);
  expect(countered.body.data).toMatchObject({ price_cents: 8_000, weekly_cap_hours: 20 });
  const offers = (await request(applicationRoute.loader, "GET", path, f, id)).body.data.offers;
  const accepted = await request(acceptRoute.action, "POST", `${path}/accept`, f, id, { offer_id: offers.at(-1).id });
  expect(accepted.status).toBe(200);
  return { m, f, id, base: `/api/contracts/${id.id}` };
}

describe("hourly contracts by the API", () => {
  it("proposal with a weekly cap → hire → fund the week → log → submit → approve → paid", async () => {
    const { m, f, id, base } = await hourlyHire();
    const week = { ...id, week: MONDAY };
    const contract = await request(contractRoute.loader, "GET", base, m, id);
    expect(contract.body.data.allowed_actions).toEqual(["fund"]);
    const weeks = await request(weeksRoute.loader, "GET", `${base}/weeks`, f, id);
    expect(weeks.status).toBe(200);
    expect(weeks.body.data).toMatchObject([
      { week_start: MONDAY, status: "awaiting_funding", rate_cents: 8_000, cap_minutes: 1_200 },
    ]);
    expect(weeks.body.data[0].money.amount_cents).toBe(160_000);

    // Not funded yet: 409 in Portuguese.
    const early = await request(entriesRoute.action, "POST", `${base}/weeks/${MONDAY}/entries`, f, week, entry);
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/ainda não foi paga/);

    // The week's money through the contract's charge endpoint, confirmed by the operator.
    const charge = await request(chargesRoute.action, "POST", `${base}/charges`, m, id);
    expect(charge.status).toBe(201);
    expect(charge.body.data.amount_cents).toBe(160_000);
    await confirmReceipt(operator, charge.body.data.id, { e2e_id: e2eId(), amount_cents: 160_000 });

    const logged = await request(entriesRoute.action, "POST", `${base}/weeks/${MONDAY}/entries`, f, week, entry);
    expect(logged.status).toBe(201);
    expect(logged.body).toMatchObject({ data: { day: MONDAY, minutes: 150 }, message: "Horas lançadas." });
    const entryParams = { ...id, entry: logged.body.data.id };
    const edited = await request(entryRoute.action, "PATCH", `${base}/entries/${entryParams.entry}`, f, entryParams, {
      ...entry,
      minutes: 155,
    });
    expect(edited.status).toBe(200);
    const extra = await request(entriesRoute.action, "POST", `${base}/weeks/${MONDAY}/entries`, f, week, {
      ...entry,
      day: "2026-12-01",
    });
    const removed = await request(entryRoute.action, "DELETE", `${base}/entries/${extra.body.data.id}`, f, {
      ...id,
      entry: extra.body.data.id,
    });
    expect(removed.status).toBe(200);

    const detail = await request(weekRoute.loader, "GET", `${base}/weeks/${MONDAY}`, m, week);
    expect(detail.body.data).toMatchObject({ minutes_total: 155, entries: [{ minutes: 155 }] });

    // The week's entries as CSV, for both sides.
    const csv = await request(csvRoute.loader, "GET", `${base}/weeks/${MONDAY}/entries.csv`, m, week);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toMatch(/text\/csv/);
    expect(csv.body).toContain(`${MONDAY};155;"2,58";Modelei o banco de dados do app.\r\n`);
    expect(csv.body).toContain('total;155;"2,58";\r\n');
    expect(csv.body).toContain('liberado ao aprovar;;"206,66";\r\n');

    expect((await request(submitRoute.action, "POST", `${base}/weeks/${MONDAY}/submit`, m, week)).status).toBe(403);
    const submitted = await request(submitRoute.action, "POST", `${base}/weeks/${MONDAY}/submit`, f, week);
    expect(submitted.status).toBe(200);
    expect(submitted.body.data.status).toBe("submitted");

    expect((await request(approveRoute.action, "POST", `${base}/weeks/${MONDAY}/approve`, f, week)).status).toBe(403);
    const approved = await request(approveRoute.action, "POST", `${base}/weeks/${MONDAY}/approve`, m, week);
    expect(approved.status).toBe(200);
    // 155 minutes at R$ 80,00 an hour: floor(155 × 8 000 / 60) = 20 666 centavos.
    const released = Math.floor((155 * 8_000) / 60);
    expect(approved.body.data.money).toEqual({
      amount_cents: 160_000,
      released_cents: released,
      fee_cents: feeOf(released, 1_000),
      net_cents: released - feeOf(released, 1_000),
      refunded_cents: 160_000 - released,
      kept_cents: 0,
      carried_in_cents: 0,
      carried_from: null,
      due_cents: 160_000,
    });
    expect((await request(approveRoute.action, "POST", `${base}/weeks/${MONDAY}/approve`, m, week)).status).toBe(409);
    const freelancerId = (
      await db.selectFrom("contracts").select("freelancer_id").where("id", "=", id.id).executeTakeFirstOrThrow()
    ).freelancer_id;
    expect(await balanceOf(account.available(freelancerId))).toBe(released - feeOf(released, 1_000));
    expect(await checkLedger()).toEqual([]);
  });

  it("answers 401, 403, 404, 409 and 422 (per field, in Portuguese)", async () => {
    const { m, f, id, base } = await hourlyHire();
    const week = { ...id, week: MONDAY };
    const stranger = await signedInUser({ account_type: "freelancer" });
    const post = (who: Who | undefined, body: unknown, params = week) =>
      request(entriesRoute.action, "POST", `${base}/weeks/${params.week}/entries`, who, params, body);

    expect((await request(weeksRoute.loader, "GET", `${base}/weeks`, undefined, id)).status).toBe(401);
    expect((await request(weeksRoute.loader, "GET", `${base}/weeks`, stranger, id)).status).toBe(404);
    expect((await request(weekRoute.loader, "GET", `${base}/weeks/${MONDAY}`, stranger, week)).status).toBe(404);
    expect((await request(csvRoute.loader, "GET", `${base}/weeks/${MONDAY}/entries.csv`, stranger, week)).status).toBe(
      404,
    );
    expect(
      (await request(weekRoute.loader, "GET", `${base}/weeks/2026-12-01`, f, { ...id, week: "2026-12-01" })).status,
    ).toBe(404);
    expect((await post(stranger, entry)).status).toBe(404);
    expect((await post(m, entry)).status).toBe(403);

    const invalid = await post(f, { day: "ontem", minutes: 0, description: "curta" });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual({
      day: "Informe um dia válido.",
      minutes: "Informe a duração, de 1 minuto a 24 horas.",
      description: "Descreva o que foi feito (de 10 a 2000 caracteres).",
    });

    // A fixed contract has no weeks; an hourly one takes no delivery.
    const fixed = await signedInUser({ account_type: "merchant" });
    const fixedOpp = await createOpportunity(db, { merchant_id: fixed.user.id });
    const capOnFixed = await request(
      applyRoute.action,
      "POST",
      `/api/opportunities/${fixedOpp.uuid}/applications`,
      stranger,
      { uuid: fixedOpp.uuid },
      {
        cover_letter: "Olá! Trabalho com React há seis anos e posso começar já nesta semana.",
        price_cents: 9_000,
        delivery_days: 30,
        weekly_cap_hours: 10,
      },
    );
    expect(capOnFixed.status).toBe(422);
    expect(capOnFixed.body.errors).toEqual({
      weekly_cap_hours: "O limite semanal de horas é só para propostas por hora.",
    });
    const delivery = await request(deliverRoute.action, "POST", `${base}/deliveries`, f, id, {
      message: "Entrega pronta, com os arquivos combinados.",
    });
    expect(delivery.status).toBe(409);
    expect(delivery.body.message).toMatch(/por hora/);

    // Ending: its sides only; once.
    expect((await request(endRoute.action, "POST", `${base}/end`, stranger, id)).status).toBe(404);
    const ended = await request(endRoute.action, "POST", `${base}/end`, m, id);
    expect(ended.status).toBe(200);
    expect(ended.body.message).toBe("Contrato encerrado: a semana em andamento é a última.");
    expect((await request(endRoute.action, "POST", `${base}/end`, f, id)).status).toBe(409);
  });
});
