import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import * as chargesRoute from "~/routes/api+/contracts+/$id.charges";
import * as splitRoute from "~/routes/api+/contracts+/$id.milestones";
import * as queuesRoute from "~/routes/api+/admin+/payments._index";
import * as confirmRoute from "~/routes/api+/admin+/payments.charges.$id.confirm";
import { cancelContract, getContract } from "~/services/contracts/contracts.server";
import { issueCharge } from "~/services/payments/charges.server";
import { balancesOf, checkLedger } from "~/services/payments/ledger.server";
import { splitMilestones } from "~/services/payments/milestones.server";
import { createSession } from "~/services/accounts/sessions.server";
import { outcome } from "../support/market";
import { get, post, signedInOperator } from "../operator/support";
import { e2eId, escrow, hired, milestonesOf } from "./support";

// A Pix paid for a charge issued before the price was split (or the contract ended) is never
// lost: the split waits while the charge is valid, and a milestone with a charge is kept
// (cancelled) so that a late payment finds it and becomes a refund due to the merchant.

beforeAll(() => escrow(1_000));

const halves = (price: number) => ({
  milestones: [
    { title: "Primeira parte", amount_cents: (price * 4) / 10, days: 5 },
    { title: "Segunda parte", amount_cents: (price * 6) / 10, days: 5 },
  ],
});

const expire = (chargeId: string) =>
  db
    .updateTable("pix_charges")
    .set({ expires_at: new Date(Date.now() - 1_000).toISOString() })
    .where("id", "=", chargeId)
    .execute();

const refundsOf = (contractId: string) =>
  db.selectFrom("refunds").selectAll().where("contract_id", "=", contractId).execute();

describe("a split after a charge was issued", () => {
  it("is refused with 409 while the charge is valid, by the API in Portuguese", async () => {
    const { owner, id } = await hired();
    const token = (await createSession(owner.id)).token;
    const base = `/api/contracts/${id}`;
    const issued = await post(chargesRoute, `${base}/charges`, token, {}, { id });
    expect(issued.status).toBe(201);
    const price = issued.body.data.amount_cents;
    const split = await post(splitRoute, `${base}/milestones`, token, halves(price), { id });
    expect(split.status).toBe(409);
    expect(split.body.message).toBe(
      "Há uma cobrança Pix em aberto para esta etapa: pague-a, ou divida o valor depois que ela vencer.",
    );
    expect(await milestonesOf(id)).toMatchObject([{ seq: 1, status: "awaiting_funding", amount_cents: price }]);
  });

  it("keeps the charged milestone (cancelled): the operator confirms its late Pix by the admin API, a refund due", async () => {
    const op = await signedInOperator();
    const { owner, id } = await hired();
    const { charge } = await issueCharge(owner, id);
    await expire(charge.id);
    const price = charge.amount_cents;
    const after = await splitMilestones(owner, id, halves(price));
    // The replaced milestone stays on record, cancelled, with nothing to receive; the new ones follow it.
    expect(after.map((m) => [m.seq, m.status, m.amount_cents, m.fee_cents, m.net_cents])).toEqual([
      [1, "cancelled", price, 0, 0],
      [2, "awaiting_funding", (price * 4) / 10, (price * 4) / 100, (price * 36) / 100],
      [3, "awaiting_funding", (price * 6) / 10, (price * 6) / 100, (price * 54) / 100],
    ]);
    expect((await getContract(owner, id)).price_cents).toBe(price);

    // Still in the operator's queue, and confirmed: the money is owed back, never lost.
    const queues = await get(queuesRoute, "/api/admin/payments", op.token);
    expect(queues.body.receipts.map((r: { id: string }) => r.id)).toContain(charge.id);
    const path = `/api/admin/payments/charges/${charge.id}/confirm`;
    const confirmed = await post(
      confirmRoute,
      path,
      op.token,
      { e2e_id: e2eId(), amount_cents: price },
      { id: charge.id },
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.settlement).toBe("late");
    expect(await refundsOf(id)).toMatchObject([{ amount_cents: price, status: "due", charge_id: charge.id }]);
    expect(await balancesOf(owner)).toMatchObject({ paid_in_cents: price, refund_due_cents: price, held_cents: 0 });
    expect((await milestonesOf(id)).map((m) => m.status)).toEqual([
      "cancelled",
      "awaiting_funding",
      "awaiting_funding",
    ]);
    expect(await checkLedger()).toEqual([]);

    // The first new milestone is funded as usual, and a second split is refused (something is paid).
    const next = await issueCharge(owner, id);
    expect(next.charge.milestone_id).toBe(after[1].id);
    expect(await outcome(splitMilestones(owner, id, halves(price)))).toBe(409);
  });

  it("drops milestones never charged, and splits again before any charge", async () => {
    const { owner, id } = await hired();
    const price = (await milestonesOf(id))[0].amount_cents;
    await splitMilestones(owner, id, halves(price));
    const again = await splitMilestones(owner, id, {
      milestones: [{ title: "Tudo de uma vez", amount_cents: price, days: 10 }],
    });
    expect(again.map((m) => [m.seq, m.status])).toEqual([[1, "awaiting_funding"]]);
  });

  it("a cancelled contract's charge paid later is a refund due too (manual confirmation)", async () => {
    const op = await signedInOperator();
    const { owner, id } = await hired();
    const { charge } = await issueCharge(owner, id);
    await cancelContract(owner, id, { reason: "O projeto foi suspenso pela diretoria." });
    const confirmed = await post(
      confirmRoute,
      `/api/admin/payments/charges/${charge.id}/confirm`,
      op.token,
      { e2e_id: e2eId(), amount_cents: charge.amount_cents },
      { id: charge.id },
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.settlement).toBe("late");
    expect(await refundsOf(id)).toMatchObject([{ amount_cents: charge.amount_cents, status: "due" }]);
    expect(await checkLedger()).toEqual([]);
  });
});
