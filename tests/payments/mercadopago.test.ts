import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { config } from "~/config.server";
import * as webhookRoute from "~/routes/api+/payments+/webhooks.mercadopago";
import { confirmReceipt, issueCharge } from "~/services/payments/charges.server";
import { balancesOf, checkLedger } from "~/services/payments/ledger.server";
import * as queuesRoute from "~/routes/api+/admin+/payments._index";
import * as confirmRoute from "~/routes/api+/admin+/payments.charges.$id.confirm";
import { cancelContract } from "~/services/contracts/contracts.server";
import { splitMilestones } from "~/services/payments/milestones.server";
import { BASE, call } from "../support/helpers";
import { get, post as postAdmin, signedInOperator } from "../operator/support";
import { escrow, e2eId, hired, milestonesOf, operator } from "./support";
import { startMercadoPago, type MercadoPagoMock, type Notification } from "./mercadopago-server";

const TOKEN = "TEST-0000-access-token";
const SECRET = "webhook-secret-0123456789abcdef";
let mp: MercadoPagoMock;

beforeAll(async () => {
  mp = await startMercadoPago({ token: TOKEN, secret: SECRET });
  escrow(1_000);
  Object.assign(config, {
    PAYMENTS_PROVIDER: "mercadopago",
    MERCADOPAGO_API_URL: mp.url,
    MERCADOPAGO_ACCESS_TOKEN: TOKEN,
    MERCADOPAGO_WEBHOOK_SECRET: SECRET,
  });
});
afterAll(() => mp.close());

/** Delivers a notification to the webhook route as the server would hand it over. */
const post = (n: Notification) =>
  call(webhookRoute.action, new Request(BASE + n.path, { method: "POST", headers: n.headers, body: n.body }));

/** A hire whose milestone has a Mercado Pago charge waiting. */
async function charged() {
  const { owner, applicant, id } = await hired();
  const { charge } = await issueCharge(owner, id);
  return { owner, applicant, id, charge, paymentId: Number((await chargeRow(charge.id)).provider_payment_id) };
}

const chargeRow = (id: string) =>
  db.selectFrom("pix_charges").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

async function receivedCount(chargeId: string) {
  const rows = await db
    .selectFrom("ledger_transactions")
    .select("id")
    .where("charge_id", "=", chargeId)
    .where("kind", "in", ["charge_received", "late_payment"])
    .execute();
  return rows.length;
}

const refusals = (outcome: string) =>
  db.selectFrom("payment_events").selectAll().where("outcome", "=", outcome).execute();

describe("Mercado Pago charges", () => {
  it("are created through the API with the charge's id as idempotency key and external reference", async () => {
    const { charge, paymentId } = await charged();
    expect(charge.provider).toBe("mercadopago");
    const payment = mp.payments.get(paymentId)!;
    expect(payment).toMatchObject({
      status: "pending",
      transaction_amount: charge.amount_cents / 100,
      external_reference: charge.id,
      date_of_expiration: charge.expires_at,
      payment_method_id: "pix",
    });
    expect(charge.br_code).toBe(payment.point_of_interaction.transaction_data.qr_code);
    expect(mp.requests.find((r) => r.method === "POST" && r.idempotencyKey === charge.id)).toBeDefined();
  });

  it("are funded by a signed webhook once the payment is approved, and only then", async () => {
    const { owner, applicant, id, charge, paymentId } = await charged();
    // A notification while the payment is still pending credits nothing.
    expect((await post(mp.notification(paymentId))).body).toMatchObject({ outcome: "pending" });
    expect((await milestonesOf(id))[0].status).toBe("awaiting_funding");

    mp.approve(paymentId);
    const answer = await post(mp.notification(paymentId, { eventId: 777_001 }));
    expect(answer).toMatchObject({ status: 200, body: { received: true, outcome: "processed" } });
    expect((await milestonesOf(id))[0].status).toBe("funded");
    expect(await chargeRow(charge.id)).toMatchObject({
      status: "paid",
      confirmed_by: "mercadopago",
      e2e_id: mp.payments.get(paymentId)!.point_of_interaction.transaction_data.e2e_id,
    });
    expect((await balancesOf(owner)).held_cents).toBe(charge.amount_cents);
    expect((await balancesOf(applicant)).held_cents).toBe(charge.amount_cents);

    // The same notification again (Mercado Pago retries, or a replay within the window): nothing more.
    expect((await post(mp.notification(paymentId, { eventId: 777_001 }))).body).toMatchObject({ outcome: "duplicate" });
    // An older notification arriving late (a new id, the payment's state read again): nothing more.
    expect((await post(mp.notification(paymentId))).body).toMatchObject({ outcome: "processed" });
    expect(await receivedCount(charge.id)).toBe(1);
    expect(await checkLedger()).toEqual([]);
  });

  it("refuses, logs and credits nothing for a bad signature, a replay, an unknown charge or a wrong amount", async () => {
    const { id, charge, paymentId } = await charged();
    mp.approve(paymentId);

    const forged = await post(mp.notification(paymentId, { secret: "someone-elses-secret-0000" }));
    expect(forged.status).toBe(401);
    expect(forged.body.message).toBeTypeOf("string");
    expect((await post(mp.notification(paymentId, { signature: null }))).status).toBe(401);
    expect((await post(mp.notification(paymentId, { signature: "ts=1,v1=zz" }))).status).toBe(401);
    // A notification signed for another payment, its query changed to this one.
    const other = mp.notification(paymentId + 1);
    expect((await post({ ...other, path: other.path.replace(String(paymentId + 1), String(paymentId)) })).status).toBe(
      401,
    );
    // A replay: a genuine notification captured ten minutes ago.
    const stale = await post(mp.notification(paymentId, { ts: Math.floor(Date.now() / 1000) - 600 }));
    expect(stale.status).toBe(401);
    // A payment this app never charged.
    expect((await post(mp.notification(mp.foreign(50)))).status).toBe(404);
    expect((await post({ ...mp.notification(paymentId), body: "{not json" })).status).toBe(400);

    expect((await milestonesOf(id))[0].status).toBe("awaiting_funding");
    expect(await receivedCount(charge.id)).toBe(0);
    expect((await refusals("webhook_bad_signature")).length).toBeGreaterThanOrEqual(4);
    expect((await refusals("webhook_stale")).length).toBe(1);
    expect((await refusals("webhook_unknown_charge")).length).toBe(1);

    // Paid, but not the charge's amount.
    const short = await charged();
    mp.approve(short.paymentId, short.charge.amount_cents / 100 - 0.01);
    expect((await post(mp.notification(short.paymentId))).status).toBe(422);
    expect(await receivedCount(short.charge.id)).toBe(0);
    expect((await refusals("webhook_wrong_amount")).length).toBe(1);
    expect(await checkLedger()).toEqual([]);
  }, 60_000);
});

describe("a payment for a charge whose milestone no longer waits for it", () => {
  it("after a split (the charge expired first) or a cancellation: the approved payment is a refund due, never 404", async () => {
    // The split replaced the charged milestone: kept, cancelled, so the payment still finds it.
    const split = await charged();
    await db
      .updateTable("pix_charges")
      .set({ expires_at: new Date(Date.now() - 1_000).toISOString() })
      .where("id", "=", split.charge.id)
      .execute();
    const price = split.charge.amount_cents;
    await splitMilestones(split.owner, split.id, {
      milestones: [
        { title: "Primeira parte", amount_cents: price / 2, days: 5 },
        { title: "Segunda parte", amount_cents: price / 2, days: 5 },
      ],
    });
    // The cancelled contract: its charge withdrawn, then paid anyway.
    const cancelled = await charged();
    await cancelContract(cancelled.owner, cancelled.id, { reason: "O projeto foi suspenso pela diretoria." });

    for (const { owner, id, charge, paymentId } of [split, cancelled]) {
      mp.approve(paymentId);
      const answer = await post(mp.notification(paymentId));
      expect(answer).toMatchObject({ status: 200, body: { outcome: "processed" } });
      expect(await receivedCount(charge.id)).toBe(1);
      const refunds = await db.selectFrom("refunds").selectAll().where("contract_id", "=", id).execute();
      expect(refunds).toMatchObject([{ amount_cents: charge.amount_cents, status: "due", charge_id: charge.id }]);
      expect(await balancesOf(owner)).toMatchObject({
        paid_in_cents: charge.amount_cents,
        refund_due_cents: charge.amount_cents,
        held_cents: 0,
      });
    }
    expect((await milestonesOf(split.id)).map((m) => m.status)).toEqual([
      "cancelled",
      "awaiting_funding",
      "awaiting_funding",
    ]);
    expect(await checkLedger()).toEqual([]);
  });

  it("is never confirmed by hand: an operator gets 409 in Portuguese (the admin API), and nothing is credited", async () => {
    const op = await signedInOperator();
    const { charge, paymentId } = await charged();
    const queues = await get(queuesRoute, "/api/admin/payments", op.token);
    expect(queues.body.receipts.map((r: { id: string }) => r.id)).not.toContain(charge.id);
    const confirm = () =>
      postAdmin(
        confirmRoute,
        `/api/admin/payments/charges/${charge.id}/confirm`,
        op.token,
        { e2e_id: e2eId(), amount_cents: charge.amount_cents },
        { id: charge.id },
      );
    const refused = await confirm();
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      "Só as cobranças Pix manuais são confirmadas à mão; esta é confirmada pelo aviso do provedor de pagamento.",
    );
    expect(await receivedCount(charge.id)).toBe(0);
    // The payment arrives: the webhook funds it, as always.
    mp.approve(paymentId);
    expect((await post(mp.notification(paymentId))).body).toMatchObject({ outcome: "processed" });
    expect(await receivedCount(charge.id)).toBe(1);
  });
});

describe("races", () => {
  it("a webhook delivered twice at once and the operator confirming the same charge: credited once", async () => {
    for (let round = 0; round < 5; round++) {
      const { id, charge, paymentId } = await charged();
      mp.approve(paymentId);
      const n = mp.notification(paymentId, { eventId: 900_000 + round });
      const results = await Promise.allSettled([
        post(n),
        post(n),
        confirmReceipt(operator, charge.id, { e2e_id: e2eId(), amount_cents: charge.amount_cents }),
      ]);
      for (const r of results.slice(0, 2)) {
        expect(r.status).toBe("fulfilled");
        expect((r as PromiseFulfilledResult<{ status: number }>).value.status).toBe(200);
      }
      expect(await receivedCount(charge.id)).toBe(1);
      expect((await milestonesOf(id))[0].status).toBe("funded");
    }
    expect(await checkLedger()).toEqual([]);
  }, 60_000);
});
