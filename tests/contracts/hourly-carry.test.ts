import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { config } from "~/config.server";
import { feeOf } from "~/lib/fees";
import { getContract } from "~/services/contracts/contracts.server";
import {
  approveWeek,
  changeWeeklyCap,
  endHourlyContract,
  listWeeks,
  logEntry,
  runHourlySchedule,
  setKeepUnused,
  submitWeek,
  weekCsv,
} from "~/services/contracts/hourly.server";
import { confirmReceipt, getCurrentCharge, issueCharge } from "~/services/payments/charges.server";
import { account, balanceOf, checkLedger, heldTotal } from "~/services/payments/ledger.server";
import * as unusedRoute from "~/routes/api+/contracts+/$id.unused";
import * as contractPage from "~/routes/contracts+/$id";
import { get, postForm, toastOf } from "../operator/support";
import { createUser } from "../../db/factories";
import { call, jsonRequest } from "../support/helpers";
import { createSession } from "~/services/accounts/sessions.server";
import { outcome, refusal } from "../support/market";
import { e2eId, fund, operator } from "../payments/support";
import { clock, entry, fundedWeek, hourlyClock, MONDAY, NEXT_MONDAY, submittedWeek, TUESDAY } from "./hourly-support";

// Keeping a week's unused money for the next week (docs/payments.md, "Contratos por hora"): the
// merchant's choice (hourly_keep_unused); on approval the rest of the week's escrow passes to the
// next week waiting for its money (one ledger transaction, escrow to escrow), whose Pix is then
// for what is left; past that week's amount the excess is refunded; with no such week, all of it.
// R$ 100,00 an hour, 10 h a week: a week of R$ 1.000,00; 210 minutes release R$ 350,00.

hourlyClock();

const WEEK = 100_000;
const RELEASED = 35_000;
const UNUSED = WEEK - RELEASED;

/** A submitted week (210 min) with the next one waiting for its money, the merchant keeping the unused part. */
async function keeping(terms: { cap_hours?: number } = {}) {
  const hire = await submittedWeek(terms);
  await setKeepUnused(hire.owner, hire.id, { keep: true });
  return hire;
}

const weekOf = (weeks: Awaited<ReturnType<typeof listWeeks>>, start: string) =>
  weeks.find((w) => w.week_start === start)!;

async function milestoneOf(id: string, start: string) {
  return db
    .selectFrom("milestones as m")
    .innerJoin("contract_weeks as w", "w.milestone_id", "m.id")
    .selectAll("m")
    .where("w.contract_id", "=", id)
    .where("w.week_start", "=", start)
    .executeTakeFirstOrThrow();
}

async function refundsOf(id: string) {
  return db.selectFrom("refunds").selectAll().where("contract_id", "=", id).orderBy("created_at").execute();
}

describe("keeping the unused money", () => {
  it("is off by default: the approval refunds the rest, as before", async () => {
    const { owner, id } = await submittedWeek();
    expect((await getContract(owner, id)).hourly_keep_unused).toBe(false);
    await approveWeek(owner, id, MONDAY);
    expect((await refundsOf(id)).map((r) => r.amount_cents)).toEqual([UNUSED]);
    expect(await milestoneOf(id, NEXT_MONDAY)).toMatchObject({ carried_in_cents: 0, status: "awaiting_funding" });
    expect(await checkLedger()).toEqual([]);
  });

  it("passes the rest to the next week, whose Pix is for what is left; nothing goes back", async () => {
    const { owner, applicant, id } = await keeping();
    const approved = await approveWeek(owner, id, MONDAY);
    expect(approved.money).toMatchObject({ released_cents: RELEASED, kept_cents: UNUSED, refunded_cents: 0 });
    expect(await refundsOf(id)).toEqual([]);
    expect(await weekCsv(owner, id, MONDAY)).toContain(`guardado para a semana seguinte;;"650,00";`);
    const first = await milestoneOf(id, MONDAY);
    expect(first).toMatchObject({ status: "released", released_cents: RELEASED, refunded_cents: 0 });
    expect(first.carried_out_cents).toBe(UNUSED);
    const next = await milestoneOf(id, NEXT_MONDAY);
    expect(next).toMatchObject({ status: "awaiting_funding", carried_in_cents: UNUSED });
    expect(await balanceOf(account.escrow(first.id))).toBe(0);
    expect(await balanceOf(account.escrow(next.id))).toBe(UNUSED);
    expect(await balanceOf(account.available(applicant.id))).toBe(RELEASED - feeOf(RELEASED, 1_000));
    // One internal transaction, escrow to escrow: no Pix out nor in.
    const carry = await db
      .selectFrom("ledger_transactions")
      .selectAll()
      .where("kind", "=", "carry")
      .where("contract_id", "=", id)
      .execute();
    expect(carry).toMatchObject([{ contract_id: id, milestone_id: first.id, memo: next.id }]);
    // Both sides see it on the week; the merchant pays the rest.
    for (const user of [owner, applicant]) {
      expect(weekOf(await listWeeks(user, id), NEXT_MONDAY).money).toMatchObject({
        amount_cents: WEEK,
        carried_in_cents: UNUSED,
        carried_from: MONDAY,
        due_cents: RELEASED,
      });
    }
    expect((await getContract(owner, id)).milestones.find((m) => m.id === next.id)).toMatchObject({
      due_cents: RELEASED,
    });
    await fund(owner, id);
    expect(await milestoneOf(id, NEXT_MONDAY)).toMatchObject({ status: "funded" });
    expect(weekOf(await listWeeks(owner, id), NEXT_MONDAY).status).toBe("open");
    expect(await balanceOf(account.escrow(next.id))).toBe(WEEK);
    expect(
      await db.selectFrom("pix_charges").select("amount_cents").where("milestone_id", "=", next.id).execute(),
    ).toEqual([{ amount_cents: RELEASED }]);
    expect(await checkLedger()).toEqual([]);
    const held = await heldTotal();
    expect(held.ledger).toBe(held.milestones);
  });

  it("funds the next week without a Pix when the rest covers it, and refunds the excess", async () => {
    // The next week is of 5 h (R$ 500,00): the R$ 650,00 left cover it, R$ 150,00 go back.
    const { owner, applicant, id } = await fundedWeek();
    await changeWeeklyCap(owner, id, { weekly_cap_hours: 5 });
    await logEntry(applicant, id, MONDAY, entry(MONDAY, 120));
    await logEntry(applicant, id, MONDAY, entry(TUESDAY, 90));
    await submitWeek(applicant, id, MONDAY);
    await setKeepUnused(owner, id, { keep: true });
    const approved = await approveWeek(owner, id, MONDAY);
    expect(approved.money).toMatchObject({ kept_cents: 50_000, refunded_cents: UNUSED - 50_000 });
    expect((await refundsOf(id)).map((r) => r.amount_cents)).toEqual([UNUSED - 50_000]);
    expect(await milestoneOf(id, NEXT_MONDAY)).toMatchObject({ status: "funded", carried_in_cents: 50_000 });
    const next = weekOf(await listWeeks(applicant, id), NEXT_MONDAY);
    expect(next).toMatchObject({ status: "open", money: { due_cents: 0, carried_in_cents: 50_000 } });
    expect(await getCurrentCharge(owner, id)).toBeNull();
    expect(await checkLedger()).toEqual([]);
  });

  it("refunds all of it when the next week was already paid by Pix", async () => {
    const { owner, id } = await keeping();
    await fund(owner, id);
    await approveWeek(owner, id, MONDAY);
    expect((await refundsOf(id)).map((r) => r.amount_cents)).toEqual([UNUSED]);
    expect(await milestoneOf(id, NEXT_MONDAY)).toMatchObject({ status: "funded", carried_in_cents: 0 });
    expect(await checkLedger()).toEqual([]);
  });

  it("funds the week with a Pix for the whole week issued before the carry, and refunds the difference", async () => {
    const { owner, id } = await keeping();
    const { charge } = await issueCharge(owner, id);
    expect(charge.amount_cents).toBe(WEEK);
    await approveWeek(owner, id, MONDAY);
    // The old charge is not offered any more: a new one is for the rest.
    expect(await getCurrentCharge(owner, id)).toBeNull();
    const paid = await confirmReceipt(operator, charge.id, { e2e_id: e2eId(), amount_cents: WEEK });
    expect(paid.settlement).toBe("funded");
    const next = await milestoneOf(id, NEXT_MONDAY);
    expect(next.status).toBe("funded");
    expect(await balanceOf(account.escrow(next.id))).toBe(WEEK);
    // What the Pix paid beyond the rest is owed back, named by the charge.
    expect(await refundsOf(id)).toMatchObject([{ amount_cents: UNUSED, charge_id: charge.id, status: "due" }]);
    expect(await checkLedger()).toEqual([]);
  });

  it("refunds the kept money when the week it went to is dropped (the contract ended before its Pix)", async () => {
    const { owner, id } = await keeping();
    await approveWeek(owner, id, MONDAY);
    await endHourlyContract(owner, id);
    const next = await milestoneOf(id, NEXT_MONDAY);
    expect(next).toMatchObject({ status: "cancelled", refunded_cents: UNUSED });
    expect(await balanceOf(account.escrow(next.id))).toBe(0);
    expect((await refundsOf(id)).map((r) => r.amount_cents)).toEqual([UNUSED]);
    expect((await getContract(owner, id)).status).toBe("completed");
    expect(await checkLedger()).toEqual([]);
  });

  it("a week paid by the kept money, of a contract ended: worked and approved as the last, its unused money goes back", async () => {
    const { owner, applicant, id } = await fundedWeek();
    await changeWeeklyCap(owner, id, { weekly_cap_hours: 5 });
    await logEntry(applicant, id, MONDAY, entry(MONDAY, 120));
    await logEntry(applicant, id, MONDAY, entry(TUESDAY, 90));
    await submitWeek(applicant, id, MONDAY);
    await setKeepUnused(owner, id, { keep: true });
    await approveWeek(owner, id, MONDAY);
    await endHourlyContract(owner, id);
    // The next week, paid by the kept money, is the last: sent empty and approved, all of it goes back.
    clock("2026-12-09T18:00:00.000Z");
    await submitWeek(applicant, id, NEXT_MONDAY);
    await approveWeek(owner, id, NEXT_MONDAY);
    const next = await milestoneOf(id, NEXT_MONDAY);
    expect(next).toMatchObject({ status: "refunded", released_cents: 0, refunded_cents: 50_000 });
    expect(await balanceOf(account.escrow(next.id))).toBe(0);
    expect((await refundsOf(id)).map((r) => r.amount_cents)).toEqual([UNUSED - 50_000, 50_000]);
    expect((await getContract(owner, id)).status).toBe("completed");
    expect(await checkLedger()).toEqual([]);
  });

  it("refunds the kept money when the week it went to lapses unpaid", async () => {
    const { owner, id } = await keeping();
    await approveWeek(owner, id, MONDAY);
    // Monday 14 December, 12:01 in São Paulo: the week of the 7th passed without its Pix.
    await runHourlySchedule(new Date("2026-12-14T15:01:00.000Z"));
    const next = await milestoneOf(id, NEXT_MONDAY);
    expect(next).toMatchObject({ status: "cancelled", refunded_cents: UNUSED });
    expect(weekOf(await listWeeks(owner, id), NEXT_MONDAY).status).toBe("lapsed");
    expect(await balanceOf(account.escrow(next.id))).toBe(0);
    expect((await refundsOf(id)).map((r) => r.amount_cents)).toEqual([UNUSED]);
    expect(await checkLedger()).toEqual([]);
  });

  it("moves nothing without payments", async () => {
    config.PAYMENTS = "off";
    const { owner, id } = await keeping();
    await approveWeek(owner, id, MONDAY);
    expect(await db.selectFrom("ledger_transactions").selectAll().where("contract_id", "=", id).execute()).toEqual([]);
    expect(await milestoneOf(id, NEXT_MONDAY)).toMatchObject({ carried_in_cents: 0 });
  });
});

describe("the choice", () => {
  it("is the merchant's, while the contract runs; a bad value is 422 on the field", async () => {
    const { owner, applicant, id } = await fundedWeek();
    expect(await setKeepUnused(owner, id, { keep: "1" })).toEqual({ hourly_keep_unused: true });
    expect((await getContract(applicant, id)).hourly_keep_unused).toBe(true);
    expect(await setKeepUnused(owner, id, { keep: false })).toEqual({ hourly_keep_unused: false });
    expect(await refusal(setKeepUnused(owner, id, { keep: "talvez" }))).toMatchObject({
      status: 422,
      fields: { keep: "keep_unused_invalid" },
    });
    expect(await refusal(setKeepUnused(owner, id, {}))).toMatchObject({ status: 422 });
    expect(await refusal(setKeepUnused(applicant, id, { keep: true }))).toMatchObject({ status: 403 });
    const stranger = await createUser(db, { account_type: "merchant" });
    expect(await refusal(setKeepUnused(stranger, id, { keep: true }))).toMatchObject({ status: 404 });
    await endHourlyContract(owner, id);
    expect(await refusal(setKeepUnused(owner, id, { keep: true }))).toMatchObject({ status: 409 });
  });

  it("by the API: POST /api/contracts/:id/unused", async () => {
    const { owner, applicant, id } = await fundedWeek();
    const post = async (user: typeof owner, body: unknown) => {
      const { token } = await createSession(user.id);
      const path = `/api/contracts/${id}/unused`;
      return call(unusedRoute.action, jsonRequest(path, body, { token, method: "POST" }), { id });
    };
    const done = await post(owner, { keep: true });
    expect(done).toMatchObject({ status: 200, body: { data: { hourly_keep_unused: true } } });
    expect((await post(owner, { keep: 3 })).status).toBe(422);
    expect((await post(applicant, { keep: true })).status).toBe(403);
  });
});

describe("the contract's page, without JavaScript", () => {
  it("turns the choice over with a plain form; both sides see the kept money on the weeks", async () => {
    const { owner, applicant, id } = await submittedWeek();
    const merchant = (await createSession(owner.id)).token;
    const path = `/contracts/${id}`;
    const kept = await postForm(contractPage, path, merchant, { intent: "keep_unused", keep: "1" }, { id });
    expect(kept.status).toBe(302);
    expect(kept.headers.get("Location")).toBe(`${path}#unused`);
    expect(await toastOf(kept)).toBe("Escolha da sobra da semana salva.");
    expect((await get(contractPage, path, merchant, { id })).body.contract.hourly_keep_unused).toBe(true);
    const refused = await postForm(contractPage, path, merchant, { intent: "keep_unused", keep: "x" }, { id });
    expect(refused.status).toBe(422);
    await approveWeek(owner, id, MONDAY);
    for (const token of [merchant, (await createSession(applicant.id)).token]) {
      const page = await get(contractPage, path, token, { id });
      expect(page.body.weeks.find((w: { week_start: string }) => w.week_start === NEXT_MONDAY).money).toMatchObject({
        carried_in_cents: UNUSED,
        carried_from: MONDAY,
        due_cents: RELEASED,
      });
      expect(page.body.weeks.find((w: { week_start: string }) => w.week_start === MONDAY).money).toMatchObject({
        kept_cents: UNUSED,
        refunded_cents: 0,
      });
    }
  });
});

describe("races", () => {
  it("an approval carrying into a week while its Pix is confirmed: the ledger holds either way", async () => {
    for (let i = 0; i < 3; i++) {
      const { owner, id } = await keeping();
      const { charge } = await issueCharge(owner, id);
      await Promise.all([
        outcome(approveWeek(owner, id, MONDAY)),
        outcome(confirmReceipt(operator, charge.id, { e2e_id: e2eId(), amount_cents: charge.amount_cents })),
      ]);
      const next = await milestoneOf(id, NEXT_MONDAY);
      expect(next.status).toBe("funded");
      expect(await balanceOf(account.escrow(next.id))).toBe(WEEK);
      // Carried first: the Pix paid the whole week and the rest went back; paid first: no carry.
      const refunds = await refundsOf(id);
      expect(refunds.reduce((sum, r) => sum + r.amount_cents, 0)).toBe(UNUSED);
      expect(await checkLedger()).toEqual([]);
    }
  });

  it("two approvals at once: one wins, one carry", async () => {
    const { owner, id } = await keeping();
    const results = await Promise.all([
      outcome(approveWeek(owner, id, MONDAY)),
      outcome(approveWeek(owner, id, MONDAY)),
    ]);
    expect(results.sort()).toEqual([200, 409]);
    const carries = db.selectFrom("ledger_transactions").selectAll().where("kind", "=", "carry");
    expect(await carries.where("contract_id", "=", id).execute()).toHaveLength(1);
    expect(await milestoneOf(id, NEXT_MONDAY)).toMatchObject({ carried_in_cents: UNUSED });
    expect(await checkLedger()).toEqual([]);
  });

  it("the choice changed during an approval: the approval uses one or the other, whole", async () => {
    for (let i = 0; i < 3; i++) {
      const { owner, id } = await keeping();
      await Promise.all([approveWeek(owner, id, MONDAY), setKeepUnused(owner, id, { keep: false })]);
      const next = await milestoneOf(id, NEXT_MONDAY);
      const refunded = (await refundsOf(id)).reduce((sum, r) => sum + r.amount_cents, 0);
      expect(next.carried_in_cents + refunded).toBe(UNUSED);
      expect([0, UNUSED]).toContain(next.carried_in_cents);
      expect(await checkLedger()).toEqual([]);
    }
  });

  it("the contract ended right after the carry: the kept money goes back", async () => {
    const { owner, applicant, id } = await keeping();
    await Promise.all([outcome(approveWeek(owner, id, MONDAY)), outcome(endHourlyContract(applicant, id))]);
    const next = await milestoneOf(id, NEXT_MONDAY);
    expect(next.status).toBe("cancelled");
    expect(await balanceOf(account.escrow(next.id))).toBe(0);
    expect((await refundsOf(id)).reduce((sum, r) => sum + r.amount_cents, 0)).toBe(UNUSED);
    expect(await checkLedger()).toEqual([]);
  });
});
