import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { config } from "~/config.server";
import { feeOf } from "~/lib/fees";
import * as page from "~/routes/admin+/disputes.$id";
import * as openApi from "~/routes/api+/contracts+/$id.disputes";
import * as caseApi from "~/routes/api+/admin+/disputes.$id";
import * as decisionApi from "~/routes/api+/admin+/disputes.$id.decision";
import { createSession } from "~/services/accounts/sessions.server";
import { balancesOf, checkLedger } from "~/services/payments/ledger.server";
import { splitMilestones } from "~/services/payments/milestones.server";
import { deliver, escrow, fund, hired, milestonesOf } from "../payments/support";
import { auditRows, get, post, postForm, signedInOperator } from "./support";

// Dispute decisions on a contract with payments move the held milestone's money in the
// decision's own transaction: complete releases it (less the fee), cancel refunds it, a split
// gives R$ X to the freelancer (the fee on X only) and refunds the rest. The ledger balances.

const PRICE = 300_000;

beforeAll(() => escrow(1_000));

/** A funded (and delivered) escrow contract under dispute, with the operator's token. */
async function disputed(options: { milestones?: number; delivered?: boolean } = {}) {
  const { owner, applicant, id } = await hired();
  if (options.milestones) {
    const part = PRICE / options.milestones;
    await splitMilestones(owner, id, {
      milestones: Array.from({ length: options.milestones }, (_, i) => ({
        title: `Etapa ${i + 1}`,
        amount_cents: part,
        days: 5,
      })),
    });
  }
  await fund(owner, id);
  if (options.delivered !== false) await deliver(applicant, id);
  const merchant = await createSession(owner.id);
  const opened = await post(
    openApi,
    "/x",
    merchant.token,
    { reason: "quality", statement: "A entrega não cobre o combinado." },
    { id },
  );
  expect(opened.status).toBe(201);
  const dispute = await db.selectFrom("disputes").selectAll().where("contract_id", "=", id).executeTakeFirstOrThrow();
  const operator = await signedInOperator();
  return { owner, applicant, id, disputeId: dispute.id, operator };
}

const reason = "Decisão tomada com base nas entregas e na conversa.";

async function decide(c: { disputeId: string; operator: { token: string } }, body: Record<string, unknown>) {
  return post(decisionApi, "/x", c.operator.token, { reason, ...body }, { id: c.disputeId });
}

async function lastAudit(disputeId: string) {
  const rows = (await auditRows()).filter((r) => r.target_id === disputeId);
  return rows.at(-1)!;
}

describe("dispute decisions move the held money", () => {
  it("complete releases the milestone to the freelancer less the fee; the contract completes", async () => {
    const c = await disputed();
    const record = await get(caseApi, "/x", c.operator.token, { id: c.disputeId });
    expect(record.body.data.decisions).toEqual(["complete", "cancel", "split"]);
    expect(record.body.data.held).toMatchObject({ amount_cents: PRICE, fee_bps: 1_000 });

    const decided = await decide(c, { decision: "complete" });
    expect(decided.status).toBe(200);
    expect(decided.body.data.contract_status).toBe("completed");
    const fee = feeOf(PRICE, 1_000);
    expect(await balancesOf(c.applicant)).toMatchObject({ available_cents: PRICE - fee, held_cents: 0 });
    expect((await balancesOf(c.owner)).refund_due_cents).toBe(0);
    expect((await milestonesOf(c.id))[0]).toMatchObject({ status: "released", fee_cents: fee });
    const audit = await lastAudit(c.disputeId);
    expect(JSON.parse(audit.after!)).toMatchObject({
      decision: "complete",
      money: { released_cents: PRICE, fee_cents: fee, refunded_cents: 0 },
    });
    expect(await checkLedger()).toEqual([]);
  });

  it("complete with a milestone still to fund: the held one is released and the contract goes on", async () => {
    const c = await disputed({ milestones: 2 });
    const decided = await decide(c, { decision: "complete" });
    expect(decided.status).toBe(200);
    expect(decided.body.data.contract_status).toBe("in_progress");
    expect((await milestonesOf(c.id)).map((m) => m.status)).toEqual(["released", "awaiting_funding"]);
    const contract = await db.selectFrom("contracts").selectAll().where("id", "=", c.id).executeTakeFirstOrThrow();
    expect(contract).toMatchObject({ disputed_at: null, ended_at: null });
    expect(await checkLedger()).toEqual([]);
  });

  it("cancel refunds the held money to the merchant (a refund for the operator to pay)", async () => {
    const c = await disputed({ delivered: false });
    const decided = await decide(c, { decision: "cancel" });
    expect(decided.status).toBe(200);
    expect(decided.body.data.contract_status).toBe("cancelled");
    expect((await balancesOf(c.owner)).refund_due_cents).toBe(PRICE);
    expect((await balancesOf(c.applicant)).available_cents).toBe(0);
    expect((await milestonesOf(c.id))[0].status).toBe("refunded");
    const refund = await db.selectFrom("refunds").selectAll().where("contract_id", "=", c.id).executeTakeFirstOrThrow();
    expect(refund).toMatchObject({ status: "due", amount_cents: PRICE, user_id: c.owner.id });
    expect(await checkLedger()).toEqual([]);
  });

  it("split: R$ X to the freelancer (fee on X only), the rest refunded; X outside 0..held is a Portuguese 422", async () => {
    const c = await disputed();
    const tooMuch = await decide(c, { decision: "split", freelancer_cents: PRICE + 1 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors.freelancer_cents).toBe("O valor para o freelancer não pode passar do valor da etapa.");
    for (const bad of [-1, 1.5, "muito", null]) {
      const refused = await decide(c, { decision: "split", freelancer_cents: bad });
      expect(refused.status, String(bad)).toBe(422);
      expect(refused.body.errors.freelancer_cents).toBe("Informe um valor válido para o freelancer.");
    }
    const missing = await decide(c, { decision: "split" });
    expect(missing.status).toBe(422);
    // Nothing moved, the dispute is still open.
    expect(
      (await db.selectFrom("disputes").select("status").where("id", "=", c.disputeId).executeTakeFirstOrThrow()).status,
    ).toBe("open");
    expect((await milestonesOf(c.id))[0].status).toBe("delivered");

    const x = 120_000;
    const decided = await decide(c, { decision: "split", freelancer_cents: x });
    expect(decided.status).toBe(200);
    expect(decided.body.data.contract_status).toBe("cancelled");
    const fee = feeOf(x, 1_000);
    expect(await balancesOf(c.applicant)).toMatchObject({ available_cents: x - fee, held_cents: 0 });
    expect((await balancesOf(c.owner)).refund_due_cents).toBe(PRICE - x);
    expect((await milestonesOf(c.id))[0]).toMatchObject({
      released_cents: x,
      fee_cents: fee,
      refunded_cents: PRICE - x,
    });
    expect(JSON.parse((await lastAudit(c.disputeId)).after!)).toMatchObject({
      decision: "split",
      money: { released_cents: x, fee_cents: fee, refunded_cents: PRICE - x },
    });
    expect(await checkLedger()).toEqual([]);
  });

  it("split at the edges: 0 refunds everything, the whole amount releases everything", async () => {
    const none = await disputed();
    expect((await decide(none, { decision: "split", freelancer_cents: 0 })).status).toBe(200);
    expect((await balancesOf(none.owner)).refund_due_cents).toBe(PRICE);
    expect((await balancesOf(none.applicant)).available_cents).toBe(0);
    const all = await disputed();
    expect((await decide(all, { decision: "split", freelancer_cents: PRICE })).status).toBe(200);
    expect((await balancesOf(all.owner)).refund_due_cents).toBe(0);
    expect((await balancesOf(all.applicant)).available_cents).toBe(PRICE - feeOf(PRICE, 1_000));
    expect(await checkLedger()).toEqual([]);
  });

  it("the console's form (JS off): a split typed in reais, a refusal keeps what was typed", async () => {
    const c = await disputed();
    const path = `/admin/disputes/${c.disputeId}`;
    const refused = await postForm(
      page,
      path,
      c.operator.token,
      { intent: "decide", decision: "split", reason, freelancer_amount: "5.000,00" },
      { id: c.disputeId },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors.freelancer_cents).toBe("O valor para o freelancer não pode passar do valor da etapa.");
    expect(refused.body.values).toMatchObject({ freelancer_amount: "5.000,00", reason });
    const done = await postForm(
      page,
      path,
      c.operator.token,
      { intent: "decide", decision: "split", reason, freelancer_amount: "1.000,00" },
      { id: c.disputeId },
    );
    expect(done.status).toBe(302);
    expect((await balancesOf(c.applicant)).available_cents).toBe(100_000 - feeOf(100_000, 1_000));
    expect(await checkLedger()).toEqual([]);
  });

  it("two operators deciding at once (complete and split): one wins, 409 for the other, money moved once", async () => {
    for (let round = 0; round < 4; round++) {
      const c = await disputed();
      const other = { ...c, operator: await signedInOperator("Bruno Operador") };
      const answers = await Promise.all([
        decide(c, { decision: "complete" }),
        decide(other, { decision: "split", freelancer_cents: 50_000 }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const milestone = (await milestonesOf(c.id))[0];
      const won = answers[0].status === 200 ? PRICE : 50_000;
      expect(milestone.released_cents).toBe(won);
      expect((await balancesOf(c.applicant)).available_cents).toBe(won - feeOf(won, 1_000));
    }
    expect(await checkLedger()).toEqual([]);
  }, 60_000);

  it("without payments the split is refused (422) and complete/cancel move no money", async () => {
    config.PAYMENTS = "off";
    try {
      const { owner, applicant, id } = await hired();
      await deliver(applicant, id);
      const merchant = await createSession(owner.id);
      await post(
        openApi,
        "/x",
        merchant.token,
        { reason: "quality", statement: "A entrega não cobre o combinado." },
        { id },
      );
      const dispute = await db
        .selectFrom("disputes")
        .selectAll()
        .where("contract_id", "=", id)
        .executeTakeFirstOrThrow();
      const c = { disputeId: dispute.id, operator: await signedInOperator() };
      const record = await get(caseApi, "/x", c.operator.token, { id: c.disputeId });
      expect(record.body.data.decisions).toEqual(["complete", "cancel"]);
      expect(record.body.data.held).toBeNull();
      const split = await decide(c, { decision: "split", freelancer_cents: 100 });
      expect(split.status).toBe(422);
      expect(split.body.errors.decision).toBe("A divisão só vale para contratos com pagamento garantido.");
      const ledgerBefore = await db.selectFrom("ledger_entries").select("id").execute();
      expect((await decide(c, { decision: "complete" })).status).toBe(200);
      expect(await db.selectFrom("ledger_entries").select("id").execute()).toHaveLength(ledgerBefore.length);
    } finally {
      escrow(1_000);
    }
  });
});
