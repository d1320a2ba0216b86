import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "../../db";
import { createOpportunity, createVerifiedIdentity } from "../../db/factories";
import { feeOf } from "~/lib/fees";
import * as applyRoute from "~/routes/api+/opportunities+/$uuid.applications";
import * as applicationRoute from "~/routes/api+/applications+/$id";
import * as offersRoute from "~/routes/api+/applications+/$id.offers";
import * as acceptRoute from "~/routes/api+/applications+/$id.accept";
import * as contractRoute from "~/routes/api+/contracts+/$id";
import * as deliverRoute from "~/routes/api+/contracts+/$id.deliveries";
import * as approveRoute from "~/routes/api+/contracts+/$id.approve";
import * as chargesRoute from "~/routes/api+/contracts+/$id.charges";
import * as monthsRoute from "~/routes/api+/contracts+/$id.months";
import * as milestonesRoute from "~/routes/api+/contracts+/$id.milestones";
import * as endRoute from "~/routes/api+/contracts+/$id.end";
import { confirmReceipt } from "~/services/payments/charges.server";
import { account, balanceOf, checkLedger } from "~/services/payments/ledger.server";
import { call, jsonRequest, signedInUser } from "../support/helpers";
import { e2eId, escrow, MONTH_INCLUDES, operator } from "../payments/support";

// Monthly contracts by the API alone (docs/product.md §7): a monthly proposal with what a month
// includes, countered and accepted, the month funded by the contract's charge, delivered and
// approved; the months, the refusals, and ending from the next month.

type Who = { token: string };
const request = (
  handler: any,
  method: string,
  path: string,
  who: Who | undefined,
  params: Record<string, string>,
  body?: unknown,
) => call(handler, jsonRequest(path, body, { token: who?.token, method }), params);

beforeAll(() => escrow(1_000));
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  // Wednesday 2 December 2026, 15:00 in São Paulo.
  vi.setSystemTime(new Date("2026-12-02T18:00:00.000Z"));
});
afterEach(() => vi.useRealTimers());

/** A monthly proposal (R$ 2.500,00 a month) countered to R$ 2.400,00 and accepted by the API. */
async function monthlyHire() {
  const m = await signedInUser({ account_type: "merchant" });
  const f = await signedInUser({ account_type: "freelancer" });
  await createVerifiedIdentity(db, m.user.id);
  const opp = await createOpportunity(db, { merchant_id: m.user.id, budget_type: "fixed" });
  const applied = await request(
    applyRoute.action,
    "POST",
    `/api/opportunities/${opp.uuid}/applications`,
    f,
    {
      uuid: opp.uuid,
    },
    {
      cover_letter: "Olá! Cuido das redes sociais de pequenas empresas há cinco anos.",
      price_cents: 250_000,
      delivery_days: 30,
      month_includes: MONTH_INCLUDES,
    },
  );
  expect(applied.status).toBe(201);
  expect(applied.body.data).toMatchObject({ price_cents: 250_000, month_includes: MONTH_INCLUDES });
  const id = { id: applied.body.data.id };
  const path = `/api/applications/${id.id}`;
  const countered = await request(offersRoute.action, "POST", `${path}/offers`, m, id, {
    price_cents: 240_000,
    delivery_days: 30,
  });
  expect(countered.body.data).toMatchObject({ price_cents: 240_000, month_includes: MONTH_INCLUDES });
  const offers = (await request(applicationRoute.loader, "GET", path, f, id)).body.data.offers;
  const accepted = await request(acceptRoute.action, "POST", `${path}/accept`, f, id, { offer_id: offers.at(-1).id });
  expect(accepted.status).toBe(200);
  return { m, f, id, base: `/api/contracts/${id.id}` };
}

describe("monthly contracts by the API", () => {
  it("monthly proposal → hire → fund the month → deliver → approve → released; the contract goes on", async () => {
    const { m, f, id, base } = await monthlyHire();
    const contract = await request(contractRoute.loader, "GET", base, m, id);
    expect(contract.body.data).toMatchObject({
      kind: "monthly",
      monthly_day: 2,
      month_includes: MONTH_INCLUDES,
      price_cents: 240_000,
      allowed_actions: expect.arrayContaining(["fund"]),
    });
    const months = await request(monthsRoute.loader, "GET", `${base}/months`, f, id);
    expect(months.status).toBe(200);
    expect(months.body.data).toMatchObject({
      amount_cents: 240_000,
      fee_cents: 24_000,
      net_cents: 216_000,
      months: [{ month: "2026-12", starts_on: "2026-12-02", status: "awaiting_funding" }],
    });

    const charge = await request(chargesRoute.action, "POST", `${base}/charges`, m, id);
    expect(charge.status).toBe(201);
    expect(charge.body.data.amount_cents).toBe(240_000);
    await confirmReceipt(operator, charge.body.data.id, { e2e_id: e2eId(), amount_cents: 240_000 });

    const delivered = await request(deliverRoute.action, "POST", `${base}/deliveries`, f, id, {
      message: "Os posts de dezembro estão publicados e o relatório segue anexo.",
    });
    expect(delivered.status).toBe(201);
    const approved = await request(approveRoute.action, "POST", `${base}/approve`, m, id);
    expect(approved.status).toBe(200);
    expect(await balanceOf(account.available(f.user.id))).toBe(240_000 - feeOf(240_000, 1_000));
    const after = await request(monthsRoute.loader, "GET", `${base}/months`, m, id);
    expect(after.body.data.months).toMatchObject([{ month: "2026-12", status: "approved", released_cents: 240_000 }]);
    expect((await request(contractRoute.loader, "GET", base, m, id)).body.data.status).toBe("in_progress");
    expect(await checkLedger()).toEqual([]);

    // Ending: from the next month; nothing is left, so the contract completes now.
    const ended = await request(endRoute.action, "POST", `${base}/end`, f, id);
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({
      data: { ends_from: "2027-01", can_end: false },
      message:
        "Contrato encerrado a partir do próximo mês: o mês pago vai até o fim; um mês ainda sem pagamento foi cancelado.",
    });
    expect((await request(contractRoute.loader, "GET", base, m, id)).body.data.status).toBe("completed");
    const again = await request(endRoute.action, "POST", `${base}/end`, m, id);
    expect(again.status).toBe(409);
  });

  it("answers 401, 404 and 409 where docs/product.md §7 says, never a 5xx", async () => {
    const { m, id, base } = await monthlyHire();
    const stranger = await signedInUser({ account_type: "merchant" });
    expect((await request(monthsRoute.loader, "GET", `${base}/months`, undefined, id)).status).toBe(401);
    expect((await request(monthsRoute.loader, "GET", `${base}/months`, stranger, id)).status).toBe(404);
    expect((await request(endRoute.action, "POST", `${base}/end`, stranger, id)).status).toBe(404);
    expect((await request(monthsRoute.loader, "GET", "/api/contracts/x/months", m, { id: "x" })).status).toBe(404);
    const split = await request(milestonesRoute.action, "POST", `${base}/milestones`, m, id, {
      milestones: [
        { title: "Primeira parte", amount_cents: 120_000, days: 5 },
        { title: "Segunda parte", amount_cents: 120_000, days: 5 },
      ],
    });
    expect(split.status).toBe(409);
    expect(split.body.message).toMatch(/contrato é mensal/);
    // A month's proposal text on an hourly opportunity: refused on its field.
    const f = await signedInUser({ account_type: "freelancer" });
    const hourly = await createOpportunity(db, { merchant_id: m.user.id, budget_type: "hourly" });
    const refused = await request(
      applyRoute.action,
      "POST",
      `/api/opportunities/${hourly.uuid}/applications`,
      f,
      {
        uuid: hourly.uuid,
      },
      {
        cover_letter: "Olá! Cuido das redes sociais de pequenas empresas há cinco anos.",
        price_cents: 9_000,
        delivery_days: 30,
        month_includes: MONTH_INCLUDES,
      },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toMatchObject({ month_includes: expect.any(String) });
  });
});
