import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "../../db";
import { config } from "~/config.server";
import * as recurrenceRoute from "~/routes/api+/contracts+/$id.recurrence";
import * as chargesRoute from "~/routes/api+/contracts+/$id.charges";
import * as webhookRoute from "~/routes/api+/payments+/webhooks.pix-automatico";
import { approveContract } from "~/services/contracts/contracts.server";
import {
  answerAmount,
  endMonthlyContract,
  listMonths,
  proposeAmount,
  runMonthlySchedule,
} from "~/services/contracts/monthly.server";
import { createSession } from "~/services/accounts/sessions.server";
import { confirmReceipt, issueCharge } from "~/services/payments/charges.server";
import { account, balanceOf, checkLedger } from "~/services/payments/ledger.server";
import { runRecurringSchedule } from "~/services/payments/recurring.server";
import { feeOf } from "~/lib/fees";
import { BASE, call, jsonRequest } from "../support/helpers";
import { deliver, e2eId, escrow, hiredMonthly, operator } from "../payments/support";
import { startPixAutomatico, type PixAutomaticoMock } from "../payments/pix-automatico-server";
import * as contractPage from "~/routes/contracts+/$id";
import { get, postForm, toastOf } from "../operator/support";
import type { Notification } from "../payments/mercadopago-server";

// Pix Automático on monthly contracts (docs/payments.md, "Pix Automático"), by the API and the
// provider's webhook, against the local stand-in of the API Pix: authorise → the payer's bank
// approves → the schedule charges the month once → the charge's webhook funds it → approved and
// released; refusals, cancelling, a late charge owed back, and a forged webhook.

const TOKEN = "pix-automatico-test-token";
const SECRET = "pix-automatico-webhook-secret-0123";
const AMOUNT = 250_003;
let psp: PixAutomaticoMock;

beforeAll(async () => {
  psp = await startPixAutomatico({ token: TOKEN, secret: SECRET });
  escrow(1_000);
  Object.assign(config, {
    PIX_AUTOMATICO_API_URL: psp.url,
    PIX_AUTOMATICO_TOKEN: TOKEN,
    PIX_AUTOMATICO_WEBHOOK_SECRET: SECRET,
  });
});
afterAll(async () => {
  Object.assign(config, {
    PIX_AUTOMATICO_API_URL: undefined,
    PIX_AUTOMATICO_TOKEN: undefined,
    PIX_AUTOMATICO_WEBHOOK_SECRET: undefined,
  });
  await psp.close();
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  // Wednesday 2 December 2026, 15:00 in São Paulo: the contract's day is the 2nd.
  vi.setSystemTime(new Date("2026-12-02T18:00:00.000Z"));
});
afterEach(() => vi.useRealTimers());

type Who = { token: string };
const recurrence = (method: string, who: Who, id: string) =>
  call(
    recurrenceRoute[method === "GET" ? "loader" : "action"],
    jsonRequest(`/api/contracts/${id}/recurrence`, undefined, { token: who.token, method }),
    { id },
  );
const webhook = (n: Notification) =>
  call(webhookRoute.action, new Request(BASE + n.path, { method: "POST", headers: n.headers, body: n.body }));

/** A monthly hire, both sides signed in by the API. */
async function hire() {
  const h = await hiredMonthly({ amount_cents: AMOUNT });
  const m = { token: (await createSession(h.owner.id)).token };
  const f = { token: (await createSession(h.applicant.id)).token };
  return { ...h, m, f };
}

/** Authorised by the merchant and approved by their bank. */
async function authorised() {
  const h = await hire();
  const made = await recurrence("POST", h.m, h.id);
  expect(made.status).toBe(201);
  const idRec = await providerId(h.id);
  expect((await webhook(psp.approve(idRec))).status).toBe(200);
  return { ...h, idRec };
}

const providerId = async (contractId: string) =>
  (
    await db
      .selectFrom("pix_recurrences")
      .select("provider_recurrence_id")
      .where("contract_id", "=", contractId)
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow()
  ).provider_recurrence_id;
const recurringCharges = (contractId: string) =>
  db
    .selectFrom("pix_charges")
    .selectAll()
    .where("contract_id", "=", contractId)
    .where("recurrence_id", "is not", null)
    .execute();

describe("Pix Automático", () => {
  it("authorise → approved → the month charged once (two schedules at once) → debited → funded → approved → released", async () => {
    const h = await hire();
    const before = await recurrence("GET", h.m, h.id);
    expect(before.body.data).toMatchObject({
      available: true,
      recurrence: null,
      can_authorise: true,
      can_cancel: false,
    });
    expect((await recurrence("GET", h.f, h.id)).body.data.can_authorise).toBe(false);
    // The freelancer does not authorise the merchant's debits.
    expect((await recurrence("POST", h.f, h.id)).status).toBe(403);

    const made = await recurrence("POST", h.m, h.id);
    expect(made.status).toBe(201);
    expect(made.body.data.recurrence).toMatchObject({ status: "pending", amount_cents: AMOUNT, day: 2 });
    expect(made.body.data.recurrence.br_code).toMatch(/^000201/);
    // What the API Pix was asked: a monthly recurrence of the month's amount, for the merchant's document.
    const asked = psp.requests.find((r) => r.method === "POST" && r.path === "/v2/rec")!.body as any;
    expect(asked).toMatchObject({ calendario: { periodicidade: "MENSAL" }, valor: { valorRec: "2500.03" } });
    // The other side sees the state, not the code; a second authorisation is refused.
    expect((await recurrence("GET", h.f, h.id)).body.data.recurrence).toMatchObject({
      status: "pending",
      br_code: null,
    });
    expect((await recurrence("POST", h.m, h.id)).status).toBe(409);

    const idRec = await providerId(h.id);
    const approval = psp.approve(idRec);
    expect((await webhook(approval)).body.outcomes).toEqual(["processed"]);
    // The same notification again changes nothing.
    expect((await webhook(approval)).body.outcomes).toEqual(["duplicate"]);
    expect((await recurrence("GET", h.m, h.id)).body.data).toMatchObject({
      recurrence: { status: "active", br_code: null },
      can_authorise: false,
      can_cancel: true,
    });

    await Promise.all([runRecurringSchedule(), runRecurringSchedule()]);
    await runRecurringSchedule();
    const charges = await recurringCharges(h.id);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ provider: "pix_automatico", status: "pending", amount_cents: AMOUNT });
    expect(psp.cobrs.get(charges[0]!.txid)).toMatchObject({
      idRec,
      valor: { original: "2500.03" },
      calendario: { dataDeVencimento: "2026-12-04" },
    });
    expect([...psp.cobrs.values()].filter((c) => c.idRec === idRec)).toHaveLength(1);
    expect((await recurrence("GET", h.m, h.id)).body.data.month).toMatchObject({ status: "scheduled" });
    // The month is not paid twice: no ordinary charge while the debit is scheduled.
    const ordinary = await call(
      chargesRoute.action,
      jsonRequest(`/api/contracts/${h.id}/charges`, {}, { token: h.m.token }),
      { id: h.id },
    );
    expect(ordinary.status).toBe(409);
    expect(ordinary.body.message).toMatch(/agendado no Pix Automático/);

    const debited = psp.settle(charges[0]!.txid);
    expect((await webhook(debited)).body.outcomes).toEqual(["processed"]);
    expect((await webhook(debited)).body.outcomes).toEqual(["duplicate"]);
    expect((await listMonths(h.owner, h.id)).months[0]).toMatchObject({ status: "open", amount_cents: AMOUNT });
    expect(await checkLedger()).toEqual([]);

    const before_ = await balanceOf(account.available(h.applicant.id));
    await deliver(h.applicant, h.id);
    await approveContract(h.owner, h.id);
    expect((await listMonths(h.owner, h.id)).months[0]).toMatchObject({ status: "approved" });
    expect((await balanceOf(account.available(h.applicant.id))) - before_).toBe(AMOUNT - feeOf(AMOUNT, 1_000));
    expect(await checkLedger()).toEqual([]);
  });

  it("a recurrence the payer's bank refuses: rejected, no charge, and another may be asked for", async () => {
    const h = await hire();
    await recurrence("POST", h.m, h.id);
    await webhook(psp.reject(await providerId(h.id)));
    expect((await recurrence("GET", h.m, h.id)).body.data).toMatchObject({
      recurrence: { status: "rejected" },
      can_authorise: true,
    });
    await runRecurringSchedule();
    expect(await recurringCharges(h.id)).toEqual([]);
    expect((await recurrence("POST", h.m, h.id)).status).toBe(201);
  });

  it("a charge the payer's bank refuses leaves the month to an ordinary Pix", async () => {
    const h = await authorised();
    await runRecurringSchedule();
    const [charge] = await recurringCharges(h.id);
    expect((await webhook(psp.refuse(charge!.txid))).body.outcomes).toEqual(["processed"]);
    expect((await recurrence("GET", h.m, h.id)).body.data.month).toMatchObject({ status: "refused" });
    // Both sides are told, once: the merchant to pay by Pix, the freelancer that the month is not funded yet.
    expect((await webhook(psp.refuse(charge!.txid))).body.outcomes).toEqual(["duplicate"]);
    const told = await db
      .selectFrom("notifications")
      .select(["user_id", "kind"])
      .where("application_id", "=", h.id)
      .where("kind", "in", ["month_charge_refused", "month_not_funded"])
      .execute();
    expect(told).toHaveLength(2);
    expect(told).toEqual(
      expect.arrayContaining([
        { user_id: h.owner.id, kind: "month_charge_refused" },
        { user_id: h.applicant.id, kind: "month_not_funded" },
      ]),
    );
    // Not charged again by the schedule: the month is paid by Pix now.
    await runRecurringSchedule();
    expect(await recurringCharges(h.id)).toHaveLength(1);
    const { charge: pix } = await issueCharge(h.owner, h.id);
    await confirmReceipt(operator, pix.id, { e2e_id: e2eId(), amount_cents: pix.amount_cents });
    expect((await listMonths(h.owner, h.id)).months[0]).toMatchObject({ status: "open" });
    expect(await checkLedger()).toEqual([]);
  });

  it("cancelled by the merchant at the provider: the scheduled charge withdrawn, the months paid by Pix", async () => {
    const h = await authorised();
    await runRecurringSchedule();
    const [charge] = await recurringCharges(h.id);
    const cancelled = await recurrence("DELETE", h.m, h.id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.recurrence).toMatchObject({ status: "cancelled" });
    expect(psp.recs.get(h.idRec)!.status).toBe("CANCELADA");
    expect(psp.cobrs.get(charge!.txid)!.status).toBe("CANCELADA");
    expect((await recurringCharges(h.id))[0]!.status).toBe("superseded");
    expect((await recurrence("DELETE", h.m, h.id)).status).toBe(409);
    expect((await recurrence("DELETE", h.f, h.id)).status).toBe(403);
    const { charge: pix } = await issueCharge(h.owner, h.id);
    expect(pix.provider).toBe("manual");
  });

  it("a new monthly amount accepted cancels it at the provider (its amount is fixed): authorised again, it charges the new amount", async () => {
    const h = await authorised();
    await proposeAmount(h.applicant, h.id, { amount_cents: AMOUNT + 100 });
    // Only proposed: nothing changes at the provider.
    expect(psp.recs.get(h.idRec)!.status).toBe("APROVADA");
    await answerAmount(h.owner, h.id, true);
    expect(psp.recs.get(h.idRec)!.status).toBe("CANCELADA");
    const state = (await recurrence("GET", h.m, h.id)).body.data;
    expect(state).toMatchObject({ recurrence: { status: "cancelled" }, can_authorise: true });
    // The month opened keeps its amount and is paid by Pix; the new authorisation is for the new amount.
    expect((await listMonths(h.owner, h.id)).months[0]).toMatchObject({ amount_cents: AMOUNT });
    vi.setSystemTime(new Date("2026-12-02T18:05:00.000Z"));
    expect((await recurrence("POST", h.m, h.id)).body.data.recurrence).toMatchObject({
      status: "pending",
      amount_cents: AMOUNT + 100,
    });
  });

  it("ending the contract cancels it at the provider", async () => {
    const h = await authorised();
    await endMonthlyContract(h.applicant, h.id);
    expect(psp.recs.get(h.idRec)!.status).toBe("CANCELADA");
    expect((await recurrence("GET", h.m, h.id)).body.data.recurrence).toMatchObject({ status: "cancelled" });
  });

  it("a charge debited after its month lapsed is owed back, as a late Pix", async () => {
    const h = await authorised();
    await runRecurringSchedule();
    const [charge] = await recurringCharges(h.id);
    vi.setSystemTime(new Date("2026-12-05T18:00:00.000Z"));
    await runMonthlySchedule();
    expect((await listMonths(h.owner, h.id)).months[0]).toMatchObject({ status: "cancelled" });
    expect((await webhook(psp.settle(charge!.txid))).body.outcomes).toEqual(["processed"]);
    const refund = await db
      .selectFrom("refunds")
      .selectAll()
      .where("charge_id", "=", charge!.id)
      .executeTakeFirstOrThrow();
    expect(refund).toMatchObject({ status: "due" });
    expect(Number(refund.amount_cents)).toBe(AMOUNT);
    expect(await checkLedger()).toEqual([]);
  });

  it("a forged, stale or malformed notification is refused (401, 400); an unknown id is recorded, never a 5xx", async () => {
    const forged = psp.notification({ recs: [{ idRec: "RR0000" }] }, { secret: "another-secret-0123456789" });
    expect((await webhook(forged)).status).toBe(401);
    expect((await webhook(psp.notification({ recs: [{ idRec: "RR0000" }] }, { signature: null }))).status).toBe(401);
    const stale = psp.notification({ recs: [{ idRec: "RR0000" }] }, { ts: Math.floor(Date.now() / 1000) - 3_600 });
    expect((await webhook(stale)).status).toBe(401);
    expect((await webhook(psp.notification({ nothing: true } as never))).status).toBe(400);
    const unknown = await webhook(psp.notification({ recs: [{ idRec: "RR0000" }], cobsr: [{ txid: "FRR000" }] }));
    expect(unknown.status).toBe(200);
    expect(unknown.body.outcomes).toEqual(["unknown", "unknown"]);
  });

  it("is not offered without a provider with the capability (409), and only on monthly contracts", async () => {
    const h = await hire();
    const url = config.PIX_AUTOMATICO_API_URL;
    config.PIX_AUTOMATICO_API_URL = undefined;
    try {
      expect((await recurrence("GET", h.m, h.id)).body.data).toMatchObject({ available: false, can_authorise: false });
      expect((await recurrence("POST", h.m, h.id)).status).toBe(409);
    } finally {
      config.PIX_AUTOMATICO_API_URL = url;
    }
    const stranger = { token: (await createSession((await hiredMonthly()).owner.id)).token };
    expect((await recurrence("GET", stranger, h.id)).status).toBe(404);
  });
});

describe("the contract page's Pix Automático box (without JavaScript)", () => {
  it("authorises through its confirmation step, shows the copia e cola to the merchant, and cancels", async () => {
    const h = await hire();
    const path = `/contracts/${h.id}`;
    const params = { id: h.id };
    const page = await get(contractPage, path, h.m.token, params);
    expect(page.body.recurrence).toMatchObject({ available: true, recurrence: null, can_authorise: true });
    expect((await get(contractPage, path, h.f.token, params)).body.recurrence.can_authorise).toBe(false);
    const unconfirmed = await postForm(contractPage, path, h.m.token, { intent: "authorise_recurrence" }, params);
    expect(unconfirmed.headers.get("Location")).toBe(`${path}?confirm=authorise_recurrence`);
    expect(await db.selectFrom("pix_recurrences").select("id").where("contract_id", "=", h.id).execute()).toEqual([]);
    const made = await postForm(
      contractPage,
      path,
      h.m.token,
      { intent: "authorise_recurrence", confirmed: "1" },
      params,
    );
    expect(made.status).toBe(302);
    expect(made.headers.get("Location")).toBe(`${path}#recurrence`);
    expect(await toastOf(made)).toBe("Pix Automático pedido: aprove no app do seu banco.");
    const shown = await get(contractPage, path, h.m.token, params);
    expect(shown.body.recurrence.recurrence).toMatchObject({ status: "pending" });
    expect(shown.body.recurrence.recurrence.br_code).toMatch(/^000201/);
    const again = await postForm(
      contractPage,
      path,
      h.m.token,
      { intent: "authorise_recurrence", confirmed: "1" },
      params,
    );
    expect(again.status).toBe(409);
    const cancelled = await postForm(
      contractPage,
      path,
      h.m.token,
      { intent: "cancel_recurrence", confirmed: "1" },
      params,
    );
    expect(cancelled.status).toBe(302);
    expect((await get(contractPage, path, h.m.token, params)).body.recurrence.recurrence).toMatchObject({
      status: "cancelled",
      br_code: null,
    });
  });
});
