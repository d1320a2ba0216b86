import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { config } from "~/config.server";
import { feeOf } from "~/lib/fees";
import * as openApi from "~/routes/api+/contracts+/$id.disputes";
import { createSession } from "~/services/accounts/sessions.server";
import { addDisputeStatement, openDispute } from "~/services/contracts/disputes.server";
import {
  answerEntry,
  approveWeek,
  endHourlyContract,
  getWeek,
  listWeeks,
  logEntry,
  questionEntries,
  runHourlySchedule,
  submitWeek,
} from "~/services/contracts/hourly.server";
import { decideDispute, getDisputeCase } from "~/services/operator/disputes.server";
import { settleDispute } from "~/services/payments/disputes.server";
import { account, balanceOf, checkLedger } from "~/services/payments/ledger.server";
import { createUser } from "../../db/factories";
import { call, jsonRequest } from "../support/helpers";
import { refusal } from "../support/market";
import { fund, hiredHourly, operator as anyOperator } from "../payments/support";
import { clock, entry, hourlyClock, MONDAY, NEXT_MONDAY, submittedWeek, WEDNESDAY } from "./hourly-support";

// A dispute of an hourly contract's week (docs/payments.md, "Contratos por hora"): only a
// questioned week goes to a dispute; the contract is frozen until the operator decides, and the
// decision moves that week's money alone (its minutes, nothing, or a split) and the contract goes on.

const why = { reason: "quality", statement: "As horas lançadas não correspondem ao que foi entregue." };
const decisionReason = "Decisão tomada com base nos lançamentos e na conversa.";

const RATE = 10_001;
const CAP_HOURS = 10;
const AMOUNT = Math.floor((RATE * CAP_HOURS * 60) / 60);

/** A funded week with 210 minutes (Monday 120, Tuesday 90), submitted and questioned. */
async function questionedWeek() {
  const hire = await submittedWeek({ rate_cents: RATE, cap_hours: CAP_HOURS });
  const { monday } = hire;
  await questionEntries(hire.owner, hire.id, MONDAY, {
    entries: [{ id: monday.id, reason: "Essas horas parecem muitas para a tela de login." }],
  });
  return { ...hire, monday };
}

async function disputedWeek() {
  const hire = await questionedWeek();
  const { dispute } = await openDispute(hire.applicant, hire.id, { ...why, week: MONDAY });
  return { ...hire, dispute };
}

const operatorUser = () => createUser(db, { account_type: "operator", full_name: "Olga Operadora" });
const decide = async (disputeId: string, body: Record<string, unknown>) =>
  decideDispute(await operatorUser(), disputeId, { reason: decisionReason, ...body });

const contractRow = (id: string) =>
  db.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const milestoneOf = (id: string) =>
  db.selectFrom("milestones").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

hourlyClock();

describe("opening a dispute of a week", () => {
  it("either side disputes a questioned week: the dispute names the week's milestone", async () => {
    const { owner, applicant, id } = await questionedWeek();
    const week = await getWeek(owner, id, MONDAY);
    expect(week.allowed_actions).toEqual(["question", "dispute"]);
    expect((await getWeek(applicant, id, MONDAY)).allowed_actions).toEqual(["answer", "dispute"]);
    const { dispute } = await openDispute(owner, id, { ...why, week: MONDAY });
    expect(dispute).toMatchObject({ milestone_id: week.milestone_id, opened_by: "merchant", status: "open" });
    expect((await contractRow(id)).disputed_at).not.toBeNull();
    // Both sides add statements, as on any dispute.
    await addDisputeStatement(applicant, id, { statement: "Cada hora está descrita no lançamento do dia." });
    const held = await getDisputeCase(dispute.id);
    expect(held.held).toMatchObject({
      milestone_id: week.milestone_id,
      title: "Semana de 30/11/2026",
      amount_cents: AMOUNT,
    });
    expect(held.decisions).toEqual(["complete", "cancel", "split"]);
  });

  it("refuses without a week, a week not questioned, a week the contract does not have, and a second dispute", async () => {
    const hire = await hiredHourly({ rate_cents: RATE, cap_hours: CAP_HOURS });
    await fund(hire.owner, hire.id);
    await logEntry(hire.applicant, hire.id, MONDAY, entry(MONDAY, 60));
    await submitWeek(hire.applicant, hire.id, MONDAY);
    const open = (input: Record<string, unknown>) => refusal(openDispute(hire.owner, hire.id, { ...why, ...input }));
    expect(await open({})).toMatchObject({ status: 422, fields: { week: "dispute_week_required" } });
    expect(await open({ week: "" })).toMatchObject({ status: 422, fields: { week: "dispute_week_required" } });
    expect(await open({ week: 7 })).toMatchObject({ status: 422, fields: { week: "dispute_week_required" } });
    expect(await open({ week: "2026-12-01" })).toMatchObject({ status: 404 });
    expect(await open({ week: "2026-11-23" })).toMatchObject({ status: 404 });
    // A submitted week is approved or questioned first; the next week waits for its money.
    expect(await open({ week: MONDAY })).toMatchObject({ status: 409, key: "week_not_questioned" });
    expect(await open({ week: NEXT_MONDAY })).toMatchObject({ status: 409, key: "week_not_questioned" });
    const stranger = await createUser(db, { account_type: "merchant" });
    expect(await refusal(openDispute(stranger, hire.id, { ...why, week: MONDAY }))).toMatchObject({ status: 404 });
    expect((await contractRow(hire.id)).disputed_at).toBeNull();

    const { owner, applicant, id } = await disputedWeek();
    expect(await refusal(openDispute(owner, id, { ...why, week: MONDAY }))).toMatchObject({
      status: 409,
      key: "contract_disputed",
    });
    expect((await getWeek(applicant, id, MONDAY)).allowed_actions).toEqual([]);
  });

  it("freezes the contract: no week moves, by either side or the schedule, until the decision", async () => {
    const { owner, applicant, id, monday } = await disputedWeek();
    const frozen = { status: 409, key: "contract_disputed" };
    expect(await refusal(answerEntry(applicant, id, monday.id, { answer: "Foram duas telas." }))).toMatchObject(frozen);
    expect(
      await refusal(
        questionEntries(owner, id, MONDAY, { entries: [{ id: monday.id, reason: "E o que mais?" + "!".repeat(10) }] }),
      ),
    ).toMatchObject(frozen);
    expect(await refusal(endHourlyContract(owner, id))).toMatchObject(frozen);
    // The next week was opened by the submission; its money arrives, but nothing is logged in it.
    await db.updateTable("contracts").set({ disputed_at: null }).where("id", "=", id).execute();
    await fund(owner, id);
    await db.updateTable("contracts").set({ disputed_at: WEDNESDAY }).where("id", "=", id).execute();
    clock("2026-12-08T18:00:00.000Z");
    expect(await refusal(logEntry(applicant, id, NEXT_MONDAY, entry(NEXT_MONDAY, 60)))).toMatchObject(frozen);
    // Two weeks later the schedule has not sent the open week nor approved anything.
    clock("2026-12-16T18:00:00.000Z");
    await runHourlySchedule(new Date());
    expect((await listWeeks(owner, id)).map((w) => [w.week_start, w.status])).toEqual([
      [NEXT_MONDAY, "open"],
      [MONDAY, "questioned"],
    ]);
  });

  it("by the API: the week in the body, 201; without it 422 on the field", async () => {
    const { owner, id } = await questionedWeek();
    const merchant = await createSession(owner.id);
    const open = (body: unknown) =>
      call(openApi.action, jsonRequest("/x", body, { token: merchant.token, method: "POST" }), { id });
    const missing = await open(why);
    expect(missing.status).toBe(422);
    expect(missing.body.errors.week).toBe("Diga a semana questionada que vai para a disputa.");
    const opened = await open({ ...why, week: MONDAY });
    expect(opened.status).toBe(201);
  });
});

describe("the operator's decision on a week", () => {
  it("complete pays the week's minutes as an approval would; the contract goes on and the schedule catches up", async () => {
    const { owner, applicant, id, dispute } = await disputedWeek();
    const decided = await decide(dispute.id, { decision: "complete" });
    expect(decided.contract_status).toBe("in_progress");
    const released = Math.floor((210 * RATE) / 60);
    const fee = feeOf(released, 1_000);
    const week = await getWeek(owner, id, MONDAY);
    expect(week).toMatchObject({ status: "approved", approved_by: "system" });
    expect(week.money).toMatchObject({ released_cents: released, fee_cents: fee, refunded_cents: AMOUNT - released });
    expect(await balanceOf(account.available(applicant.id))).toBe(released - fee);
    expect(await milestoneOf(dispute.milestone_id!)).toMatchObject({ status: "released", released_cents: released });
    expect((await contractRow(id)).disputed_at).toBeNull();
    // Unfrozen: the next week (awaiting its money) lapses at its Monday 12:00 past.
    clock("2026-12-14T18:00:00.000Z");
    await runHourlySchedule(new Date());
    expect((await listWeeks(owner, id)).map((w) => [w.week_start, w.status])).toEqual([
      ["2026-12-14", "awaiting_funding"],
      [NEXT_MONDAY, "lapsed"],
      [MONDAY, "approved"],
    ]);
    await checkLedger();
  });

  it("cancel refunds the whole week; split releases R$ X (the fee on X) and refunds the rest, once", async () => {
    const cancelled = await disputedWeek();
    await decide(cancelled.dispute.id, { decision: "cancel" });
    const refunded = await getWeek(cancelled.owner, cancelled.id, MONDAY);
    expect(refunded.status).toBe("approved");
    expect(refunded.money).toMatchObject({ released_cents: 0, fee_cents: 0, net_cents: 0, refunded_cents: AMOUNT });
    expect(await milestoneOf(cancelled.dispute.milestone_id!)).toMatchObject({
      status: "refunded",
      refunded_cents: AMOUNT,
    });
    expect(await balanceOf(account.available(cancelled.applicant.id))).toBe(0);

    const split = await disputedWeek();
    expect(await refusal(decide(split.dispute.id, { decision: "split", freelancer_cents: AMOUNT + 1 }))).toMatchObject({
      status: 422,
    });
    const share = 12_345;
    const result = await decide(split.dispute.id, { decision: "split", freelancer_cents: share });
    expect(result.contract_status).toBe("in_progress");
    const fee = feeOf(share, 1_000);
    expect((await getWeek(split.owner, split.id, MONDAY)).money).toMatchObject({
      released_cents: share,
      fee_cents: fee,
      net_cents: share - fee,
      refunded_cents: AMOUNT - share,
    });
    expect(await balanceOf(account.available(split.applicant.id))).toBe(share - fee);
    // Decided once: a second decision is refused and nothing moves again.
    expect(await refusal(decide(split.dispute.id, { decision: "complete" }))).toMatchObject({ status: 409 });
    expect(await balanceOf(account.available(split.applicant.id))).toBe(share - fee);
    // The payments' own settlement is for fixed contracts only.
    expect(await refusal(settleDispute(anyOperator, split.id, "complete"))).toMatchObject({ status: 409 });
    await checkLedger();
  });

  it("an ended contract whose last week was disputed is completed by the decision", async () => {
    const { owner, applicant, id, dispute } = await disputedWeek();
    // Ended before the dispute would have been refused; here the end came first, then the dispute.
    await db.updateTable("contracts").set({ disputed_at: null }).where("id", "=", id).execute();
    await endHourlyContract(applicant, id);
    await db.updateTable("contracts").set({ disputed_at: WEDNESDAY }).where("id", "=", id).execute();
    const decided = await decide(dispute.id, { decision: "cancel" });
    expect(decided.contract_status).toBe("completed");
    expect((await listWeeks(owner, id)).map((w) => w.status)).toEqual(["lapsed", "approved"]);
    await checkLedger();
  });
});

describe("races", () => {
  it("a dispute and the last answer at once: one wins; two decisions at once move the money once", async () => {
    for (let round = 0; round < 3; round++) {
      const { owner, applicant, id, monday } = await questionedWeek();
      const results = await Promise.allSettled([
        openDispute(owner, id, { ...why, week: MONDAY }),
        answerEntry(applicant, id, monday.id, { answer: "Foram duas telas, login e cadastro." }),
      ]);
      const won = results.filter((r) => r.status === "fulfilled");
      expect(won).toHaveLength(1);
      const week = await getWeek(owner, id, MONDAY);
      const disputed = (await contractRow(id)).disputed_at !== null;
      // The dispute won: the week stays questioned; the answer won: the week is back in review.
      expect(week.status).toBe(disputed ? "questioned" : "submitted");
      if (disputed) {
        const dispute = await db
          .selectFrom("disputes")
          .selectAll()
          .where("contract_id", "=", id)
          .executeTakeFirstOrThrow();
        const op = await operatorUser();
        const decisions = await Promise.allSettled([
          decideDispute(op, dispute.id, { reason: decisionReason, decision: "cancel" }),
          decideDispute(op, dispute.id, { reason: decisionReason, decision: "complete" }),
        ]);
        expect(decisions.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        const settled = await milestoneOf(week.milestone_id);
        expect(settled.refunded_cents + settled.released_cents).toBe(AMOUNT);
      } else {
        expect(await refusal(approveWeek(owner, id, NEXT_MONDAY))).toMatchObject({ status: 409 });
      }
    }
    await checkLedger();
  });
});

describe("without payments", () => {
  it("the decision settles the week with no money moved and the contract goes on", async () => {
    config.PAYMENTS = "off";
    const { owner, id, dispute } = await disputedWeek();
    expect((await getDisputeCase(dispute.id)).decisions).toEqual(["complete", "cancel"]);
    expect((await decide(dispute.id, { decision: "cancel" })).contract_status).toBe("in_progress");
    expect(await getWeek(owner, id, MONDAY)).toMatchObject({ status: "approved", approved_by: "system" });
    const ledger = await db.selectFrom("ledger_transactions").select("id").where("contract_id", "=", id).execute();
    expect(ledger).toEqual([]);
  });
});
