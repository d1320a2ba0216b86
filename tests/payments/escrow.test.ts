import { sql } from "kysely";
import { parsePix, hasError } from "pix-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { db, engine } from "../../db";
import { config } from "~/config.server";
import { feeOf } from "~/lib/fees";
import {
  acceptCancellation,
  approveContract,
  cancelContract,
  getContract,
  requestCancellation,
  requestChanges,
  runContractSchedule,
} from "~/services/contracts/contracts.server";
import { confirmReceipt, getCurrentCharge, issueCharge } from "~/services/payments/charges.server";
import { balancesOf, checkLedger, heldTotal } from "~/services/payments/ledger.server";
import { answerMilestone, proposeMilestone, splitMilestones } from "~/services/payments/milestones.server";
import { settleDispute } from "~/services/payments/disputes.server";
import { outcome } from "../support/market";
import { deliver, e2eId, escrow, fund, hired, milestonesOf, operator } from "./support";

beforeAll(() => escrow(1_000));

describe("a hire with payments", () => {
  it("freezes the mode and the fee, and waits for the funding before any work", async () => {
    const { owner, applicant, id } = await hired();
    const contract = await getContract(owner, id);
    expect(contract).toMatchObject({ payments: "escrow", fee_bps: 1_000 });
    expect(contract.milestones).toMatchObject([
      { seq: 1, amount_cents: contract.price_cents, status: "awaiting_funding", fee_cents: contract.price_cents / 10 },
    ]);
    expect(contract.allowed_actions).toEqual(["cancel", "fund", "open_dispute"]);
    expect((await getContract(applicant, id)).allowed_actions).toEqual(["cancel", "open_dispute"]);
    expect(await outcome(deliver(applicant, id))).toBe(409);
    // A later change of the setting does not touch the contracts already made.
    config.PLATFORM_FEE_BPS = 1_500;
    expect((await getContract(owner, id)).fee_bps).toBe(1_000);
    config.PLATFORM_FEE_BPS = 1_000;
  });

  it("runs no deadline before the milestone is funded: awaiting payment, never overdue; then due its days after the funding", async () => {
    const { owner, applicant, id } = await hired();
    const before = await getContract(applicant, id);
    expect(before).toMatchObject({ status: "in_progress", awaiting_funding: true, overdue: false });
    // Long past the days counted from the hire, the schedule marks nothing: no work is under way.
    const late = new Date(Date.parse(before.due_at) + 30 * 86_400_000);
    await runContractSchedule(late);
    expect(await getContract(owner, id)).toMatchObject({ awaiting_funding: true, overdue: false, overdue_at: null });
    expect((await getContract(owner, id)).events.map((e) => e.kind)).not.toContain("overdue");

    await fund(owner, id);
    const funded = await getContract(applicant, id);
    const fundedAt = funded.milestones[0]!.funded_at!;
    expect(funded.awaiting_funding).toBe(false);
    expect(Date.parse(funded.due_at) - Date.parse(fundedAt)).toBe(funded.milestones[0]!.days * 86_400_000);
    // Now the deadline runs from the funding: marked once past it, not before.
    await runContractSchedule(new Date(Date.parse(funded.due_at) - 60_000));
    expect((await getContract(owner, id)).overdue_at).toBeNull();
    await runContractSchedule(new Date(Date.parse(funded.due_at) + 60_000));
    expect((await getContract(owner, id)).overdue).toBe(true);
  });

  it("issues a Pix charge: a BR Code for the amount with its txid, a QR image, shown again until it expires", async () => {
    const { owner, applicant, id } = await hired();
    expect(await outcome(issueCharge(applicant, id))).toBe(403);
    const { charge, created } = await issueCharge(owner, id);
    expect(created).toBe(true);
    const pix = parsePix(charge.br_code);
    expect(hasError(pix)).toBe(false);
    expect(pix).toMatchObject({
      type: "STATIC",
      pixKey: config.PIX_KEY,
      txid: charge.txid,
      transactionAmount: charge.amount_cents / 100,
    });
    expect(charge.txid).toMatch(/^[A-Z0-9]{25}$/);
    expect(charge.qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Date.parse(charge.expires_at) - Date.parse(charge.created_at)).toBe(24 * 3_600_000);
    expect((await issueCharge(owner, id)).created).toBe(false);
    expect((await getCurrentCharge(applicant, id))?.id).toBe(charge.id);

    // Past its 24 hours a new one is issued; the old one can still be paid (the money then goes back).
    await db
      .updateTable("pix_charges")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", charge.id)
      .execute();
    expect(await getCurrentCharge(owner, id)).toBeNull();
    const again = await issueCharge(owner, id);
    expect(again.created).toBe(true);
    expect(again.charge.txid).not.toBe(charge.txid);
    const old = await db
      .selectFrom("pix_charges")
      .select("status")
      .where("id", "=", charge.id)
      .executeTakeFirstOrThrow();
    expect(old.status).toBe("expired");
  });

  it("fund → deliver → approve: the escrow goes to the freelancer less the fee, the fee to the platform", async () => {
    const { owner, applicant, id } = await hired();
    const { charge } = await issueCharge(owner, id);
    expect(
      await outcome(confirmReceipt(operator, charge.id, { e2e_id: e2eId(), amount_cents: charge.amount_cents - 1 })),
    ).toBe(422);
    expect(
      await outcome(confirmReceipt(operator, charge.id, { e2e_id: "E123", amount_cents: charge.amount_cents })),
    ).toBe(422);
    const e2e = e2eId();
    const confirmed = await confirmReceipt(operator, charge.id, { e2e_id: e2e, amount_cents: charge.amount_cents });
    expect(confirmed).toMatchObject({ settlement: "funded", charge: { status: "paid", e2e_id: e2e } });
    expect(
      await outcome(confirmReceipt(operator, charge.id, { e2e_id: e2eId(), amount_cents: charge.amount_cents })),
    ).toBe(409);
    const price = charge.amount_cents;
    expect(await balancesOf(owner)).toMatchObject({ held_cents: price, paid_in_cents: price });
    expect(await balancesOf(applicant)).toMatchObject({ held_cents: price, available_cents: 0 });
    expect((await getContract(applicant, id)).allowed_actions).toEqual(["deliver", "cancel", "open_dispute"]);

    await deliver(applicant, id);
    await requestChanges(owner, id, { message: "Trocar a cor do rodapé." });
    expect((await milestonesOf(id))[0].status).toBe("funded");
    await deliver(applicant, id);
    await approveContract(owner, id);
    const fee = feeOf(price, 1_000);
    expect(await balancesOf(applicant)).toMatchObject({ held_cents: 0, available_cents: price - fee });
    expect(await balancesOf(owner)).toMatchObject({ held_cents: 0, paid_in_cents: price });
    expect((await milestonesOf(id))[0]).toMatchObject({ status: "released", released_cents: price, fee_cents: fee });
    expect((await getContract(owner, id)).status).toBe("completed");
    expect(await checkLedger()).toEqual([]);
  });

  it("rounds the fee down to the centavo, once", () => {
    expect(feeOf(999, 1_000)).toBe(99);
    expect(feeOf(1, 1_000)).toBe(0);
    expect(feeOf(123_457, 1_250)).toBe(15_432);
    expect(feeOf(100_000_000, 5_000)).toBe(50_000_000);
  });
});

describe("milestones", () => {
  it("split before funding (adding up to the price), worked on one after the other", async () => {
    const { owner, applicant, id } = await hired();
    const price = (await getContract(owner, id)).price_cents;
    const parts = [
      { title: "Layout das páginas", amount_cents: price - 100_000, days: 7 },
      { title: "Publicação", amount_cents: 100_000, days: 3 },
    ];
    expect(await outcome(splitMilestones(applicant, id, { milestones: parts }))).toBe(403);
    expect(
      await outcome(splitMilestones(owner, id, { milestones: [{ ...parts[0], amount_cents: price }, parts[1]] })),
    ).toBe(422);
    expect(await outcome(splitMilestones(owner, id, { milestones: [] }))).toBe(422);
    expect(
      await outcome(
        splitMilestones(owner, id, {
          milestones: Array.from({ length: 21 }, () => ({ title: "Parte", amount_cents: 1, days: 1 })),
        }),
      ),
    ).toBe(422);
    const split = await splitMilestones(owner, id, { milestones: parts });
    expect(split.map((m) => [m.seq, m.amount_cents, m.status])).toEqual([
      [1, price - 100_000, "awaiting_funding"],
      [2, 100_000, "awaiting_funding"],
    ]);

    await fund(owner, id);
    expect(await outcome(splitMilestones(owner, id, { milestones: [{ ...parts[0], amount_cents: price }] }))).toBe(409);
    await deliver(applicant, id);
    await approveContract(owner, id);
    const between = await getContract(owner, id);
    expect(between.status).toBe("in_progress");
    expect(between.allowed_actions).toContain("fund");
    expect(between.events.at(-1)).toMatchObject({ kind: "milestone_released", message: "Layout das páginas" });
    expect(await outcome(deliver(applicant, id))).toBe(409);
    await fund(owner, id);
    await deliver(applicant, id);
    await approveContract(owner, id);
    expect((await getContract(owner, id)).status).toBe("completed");
    expect((await balancesOf(applicant)).available_cents).toBe(
      price - 100_000 - feeOf(price - 100_000, 1_000) + 100_000 - feeOf(100_000, 1_000),
    );
    expect(await checkLedger()).toEqual([]);
  });

  it("an extra milestone proposed by one side joins the contract when the other accepts", async () => {
    const { owner, applicant, id } = await hired();
    const price = (await getContract(owner, id)).price_cents;
    await fund(owner, id);
    const proposal = await proposeMilestone(applicant, id, {
      title: "Versão em inglês",
      amount_cents: 50_000,
      days: 5,
    });
    expect(proposal).toMatchObject({ status: "proposed", proposed_by: "freelancer", seq: 2 });
    expect(await outcome(proposeMilestone(owner, id, { title: "Outra", amount_cents: 1_000, days: 1 }))).toBe(409);
    expect(await outcome(answerMilestone(applicant, id, proposal.id, true))).toBe(409);
    await answerMilestone(owner, id, proposal.id, true);
    const contract = await getContract(owner, id);
    expect(contract.price_cents).toBe(price + 50_000);
    expect(contract.milestones.map((m) => m.status)).toEqual(["funded", "awaiting_funding"]);
    const declined = await proposeMilestone(owner, id, { title: "Manutenção", amount_cents: 20_000, days: 30 });
    await answerMilestone(applicant, id, declined.id, false);
    expect((await getContract(owner, id)).price_cents).toBe(price + 50_000);
    // Declined: nothing to receive, no fee.
    expect((await getContract(owner, id)).milestones.find((m) => m.id === declined.id)).toMatchObject({
      status: "cancelled",
      fee_cents: 0,
      net_cents: 0,
    });
  });

  it("approving the last milestone ends a proposal still waiting (cancelled, not proposed on a completed contract)", async () => {
    for (const by of ["merchant", "schedule"] as const) {
      const { owner, applicant, id } = await hired();
      await fund(owner, id);
      await deliver(applicant, id);
      const proposal = await proposeMilestone(applicant, id, {
        title: "Versão em inglês",
        amount_cents: 50_000,
        days: 5,
      });
      if (by === "merchant") await approveContract(owner, id);
      else await runContractSchedule(new Date(Date.now() + 15 * 86_400_000));
      const contract = await getContract(owner, id);
      expect(contract.status).toBe("completed");
      expect(contract.milestones.find((m) => m.id === proposal.id)).toMatchObject({
        status: "cancelled",
        fee_cents: 0,
        net_cents: 0,
      });
      expect(await outcome(answerMilestone(owner, id, proposal.id, true))).toBe(409);
    }
    expect(await checkLedger()).toEqual([]);
  });
});

describe("refunds and disputes", () => {
  it("cancelling before a delivery owes the milestone's escrow back to the merchant", async () => {
    const { owner, applicant, id } = await hired();
    await fund(owner, id);
    await cancelContract(applicant, id, { reason: "Não vou conseguir cumprir o prazo." });
    const balances = await balancesOf(owner);
    expect(balances).toMatchObject({ held_cents: 0, refund_due_cents: (await getContract(owner, id)).price_cents });
    expect((await milestonesOf(id))[0].status).toBe("refunded");
    const refund = await db.selectFrom("refunds").selectAll().where("contract_id", "=", id).executeTakeFirstOrThrow();
    expect(refund).toMatchObject({ status: "due", user_id: owner.id });
    expect(await checkLedger()).toEqual([]);
  });

  it("a Pix paid after the milestone was cancelled is owed back at once, never held", async () => {
    const { owner, id } = await hired();
    const { charge } = await issueCharge(owner, id);
    await cancelContract(owner, id, { reason: "Mudei de ideia sobre o projeto." });
    const late = await confirmReceipt(operator, charge.id, { e2e_id: e2eId(), amount_cents: charge.amount_cents });
    expect(late.settlement).toBe("late");
    expect(await balancesOf(owner)).toMatchObject({ held_cents: 0, refund_due_cents: charge.amount_cents });
    expect(await checkLedger()).toEqual([]);
  });

  it("after a delivery, an agreed cancellation refunds too", async () => {
    const { owner, applicant, id } = await hired();
    await fund(owner, id);
    await deliver(applicant, id);
    await requestCancellation(owner, id, { reason: "O projeto foi suspenso." });
    await acceptCancellation(applicant, id);
    expect((await milestonesOf(id))[0].status).toBe("refunded");
    expect(await checkLedger()).toEqual([]);
  });

  it("a dispute split: R$ X to the freelancer less the fee on X only, the rest refunded", async () => {
    const { owner, applicant, id } = await hired();
    await fund(owner, id);
    await deliver(applicant, id);
    const price = (await getContract(owner, id)).price_cents;
    expect(await outcome(settleDispute(operator, id, "split", { freelancer_cents: price + 1 }))).toBe(422);
    const result = await settleDispute(operator, id, "split", { freelancer_cents: 120_000 });
    expect(result).toEqual({ released_cents: 120_000, refunded_cents: price - 120_000 });
    expect((await balancesOf(applicant)).available_cents).toBe(120_000 - feeOf(120_000, 1_000));
    expect((await balancesOf(owner)).refund_due_cents).toBe(price - 120_000);
    expect((await milestonesOf(id))[0]).toMatchObject({
      status: "released",
      released_cents: 120_000,
      fee_cents: 12_000,
      refunded_cents: price - 120_000,
    });
    expect((await getContract(owner, id)).status).toBe("cancelled");
    expect(await outcome(settleDispute(operator, id, "complete"))).toBe(409);
    expect(await checkLedger()).toEqual([]);
  }, 60_000);
});

describe("the ledger", () => {
  it("is append-only: the database refuses to change or remove an entry", async () => {
    const { owner, id } = await hired();
    await fund(owner, id);
    await expect(sql`UPDATE ledger_entries SET amount_cents = amount_cents + 1`.execute(db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`DELETE FROM ledger_entries`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM ledger_transactions`.execute(db)).rejects.toThrow(/append-only/);
    // Nor rewrite one by inserting on its id (SQLite's REPLACE deletes without DELETE triggers).
    const entry = await db.selectFrom("ledger_entries").selectAll().executeTakeFirstOrThrow();
    for (const table of ["ledger_entries", "ledger_transactions"]) {
      const id = table === "ledger_entries" ? entry.id : entry.transaction_id;
      const rewrite =
        engine === "postgres"
          ? sql`INSERT INTO ${sql.table(table)} SELECT * FROM ${sql.table(table)} WHERE id = ${id}
              ON CONFLICT (id) DO UPDATE SET created_at = 'x'`
          : sql`INSERT OR REPLACE INTO ${sql.table(table)} SELECT * FROM ${sql.table(table)} WHERE id = ${id}`;
      await expect(rewrite.execute(db), table).rejects.toThrow(/append-only/);
    }
    const after = await db.selectFrom("ledger_entries").selectAll().where("id", "=", entry.id).execute();
    expect(after).toEqual([entry]);
  });

  it("held total equals the funded milestones not settled", async () => {
    const held = await heldTotal();
    expect(held.ledger).toBe(held.milestones);
  });

  it("the check finds a broken invariant", async () => {
    const { owner, id } = await hired();
    await fund(owner, id);
    // A milestone moved without its money: the escrow no longer matches it.
    await db.updateTable("milestones").set({ status: "released" }).where("contract_id", "=", id).execute();
    const problems = await checkLedger();
    expect(problems.map((p) => p.problem)).toContain("escrow differs from the milestone");
    await db.updateTable("milestones").set({ status: "funded" }).where("contract_id", "=", id).execute();
    expect(await checkLedger()).toEqual([]);
  }, 60_000);
});
