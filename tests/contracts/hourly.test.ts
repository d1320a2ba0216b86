import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { config } from "~/config.server";
import { feeOf } from "~/lib/fees";
import { approveContract, deliverContract, getContract } from "~/services/contracts/contracts.server";
import {
  approveWeek,
  deleteEntry,
  editEntry,
  endHourlyContract,
  getWeek,
  listWeeks,
  logEntry,
  runHourlySchedule,
  submitWeek,
} from "~/services/contracts/hourly.server";
import { account, balanceOf, checkLedger } from "~/services/payments/ledger.server";
import { splitMilestones } from "~/services/payments/milestones.server";
import { collectPersonalData } from "~/services/accounts/data-export.server";
import { outcome, refusal } from "../support/market";
import { createUser } from "../../db/factories";
import { fund, hiredHourly } from "../payments/support";
import { clock, entry, fundedWeek, hourlyClock, MONDAY, NEXT_MONDAY } from "./hourly-support";

// Hourly contracts (docs/payments.md, "Contratos por hora"): weeks Monday to Sunday in São Paulo,
// funded ahead by Pix, time logged within the cap, approval releasing floor(minutes × rate / 60).
// The clock is set in UTC; the comments say the São Paulo time (UTC−3).

hourlyClock();

describe("an hourly hire", () => {
  it("makes an hourly contract with no lump milestone: the hire's week waits for rate × cap", async () => {
    const { owner, applicant, id } = await hiredHourly({ rate_cents: 10_001, cap_hours: 10 });
    const row = await db.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: "hourly", rate_cents: 10_001, weekly_cap_minutes: 600, paused_from: null });
    const contract = await getContract(owner, id);
    expect(contract.milestones).toMatchObject([
      { seq: 1, title: "Semana de 30/11/2026", amount_cents: 100_010, status: "awaiting_funding" },
    ]);
    const weeks = await listWeeks(applicant, id);
    expect(weeks).toMatchObject([
      {
        week_start: MONDAY,
        week_end: "2026-12-06",
        status: "awaiting_funding",
        rate_cents: 10_001,
        cap_minutes: 600,
        minutes_total: 0,
        money: { amount_cents: 100_010, released_cents: 0, refunded_cents: 100_010 },
        // Monday 7 December, 12:00 in São Paulo.
        auto_submit_at: "2026-12-07T15:00:00.000Z",
        allowed_actions: [],
      },
    ]);
    // The merchant funds the week; the fixed contract's moves are not offered nor taken.
    expect(contract.allowed_actions).toEqual(["fund"]);
    expect((await getContract(applicant, id)).allowed_actions).toEqual([]);
    expect(
      await refusal(deliverContract(applicant, id, { message: "Entrega pronta, com os arquivos combinados." })),
    ).toMatchObject({ status: 409, key: "contract_hourly" });
    expect(await refusal(approveContract(owner, id))).toMatchObject({ status: 409, key: "contract_hourly" });
    expect(
      await refusal(splitMilestones(owner, id, { milestones: [{ title: "Tudo", amount_cents: 100_010, days: 7 }] })),
    ).toMatchObject({ status: 409, key: "contract_hourly" });
  });

  it("takes no hours before the week is funded; funding opens it", async () => {
    const { owner, applicant, id } = await hiredHourly();
    expect(await refusal(logEntry(applicant, id, MONDAY, entry(MONDAY, 60)))).toMatchObject({
      status: 409,
      key: "week_not_funded",
    });
    await fund(owner, id);
    const [week] = await listWeeks(applicant, id);
    expect(week).toMatchObject({ status: "open", allowed_actions: ["log_time", "submit"] });
    expect((await getContract(owner, id)).allowed_actions).toEqual([]);
    expect(await logEntry(applicant, id, MONDAY, entry(MONDAY, 60))).toMatchObject({ day: MONDAY, minutes: 60 });
  });
});

describe("time entries", () => {
  it("refuses a future day, a day outside the week, a short description, no minutes; the wrong side and strangers", async () => {
    const { owner, applicant, id } = await fundedWeek();
    const field = async (input: object) => (await refusal(logEntry(applicant, id, MONDAY, input))).fields;
    // Wednesday is today: Thursday has not come yet.
    expect(await field(entry("2026-12-03", 60))).toEqual({ day: "entry_day_future" });
    expect(await field(entry("2026-11-29", 60))).toEqual({ day: "entry_day_outside_week" });
    expect(await field(entry("2026-02-30", 60))).toEqual({ day: "entry_day_invalid" });
    expect(await field(entry(MONDAY, 60, "Reunião."))).toEqual({ description: "entry_description_length" });
    expect(await field(entry(MONDAY, 0))).toEqual({ minutes: "entry_minutes_invalid" });
    expect(await field(entry(MONDAY, 1_441))).toEqual({ minutes: "entry_minutes_invalid" });
    expect(await logEntry(applicant, id, MONDAY, entry("2026-12-02", 30))).toMatchObject({ minutes: 30 });

    expect(await refusal(logEntry(owner, id, MONDAY, entry(MONDAY, 60)))).toMatchObject({ status: 403 });
    const stranger = await createUser(db, { account_type: "freelancer" });
    expect(await refusal(logEntry(stranger, id, MONDAY, entry(MONDAY, 60)))).toMatchObject({ status: 404 });
    expect(await refusal(getWeek(stranger, id, MONDAY))).toMatchObject({ status: 404 });
    // A week that is not a Monday, or that the contract does not have: none.
    expect(await refusal(getWeek(applicant, id, "2026-12-01"))).toMatchObject({ status: 404 });
    expect(await refusal(getWeek(applicant, id, NEXT_MONDAY))).toMatchObject({ status: 404 });
  });

  it("takes the cap exactly, then not one minute more; an edit and a deletion move the total", async () => {
    const { applicant, id } = await fundedWeek({ cap_hours: 10 });
    const first = await logEntry(applicant, id, MONDAY, entry(MONDAY, 300));
    await logEntry(applicant, id, MONDAY, entry("2026-12-01", 300));
    expect((await getWeek(applicant, id, MONDAY)).minutes_total).toBe(600);
    expect(await refusal(logEntry(applicant, id, MONDAY, entry("2026-12-02", 1)))).toMatchObject({
      status: 422,
      fields: { minutes: "entry_over_cap" },
    });
    // An edit counts only its difference: the same minutes pass, one more does not.
    expect(
      await editEntry(applicant, id, first.id, entry(MONDAY, 300, "Revisei o código da tela de login.")),
    ).toMatchObject({
      description: "Revisei o código da tela de login.",
    });
    expect(await refusal(editEntry(applicant, id, first.id, entry(MONDAY, 301)))).toMatchObject({ status: 422 });
    await editEntry(applicant, id, first.id, entry(MONDAY, 200));
    await logEntry(applicant, id, MONDAY, entry("2026-12-02", 100));
    await deleteEntry(applicant, id, first.id);
    const week = await getWeek(applicant, id, MONDAY);
    expect(week.minutes_total).toBe(400);
    expect(week.entries.map((e) => [e.day, e.minutes])).toEqual([
      ["2026-12-01", 300],
      ["2026-12-02", 100],
    ]);
  });

  it("holds no more than 24 hours in a day", async () => {
    const { applicant, id } = await fundedWeek({ cap_hours: 60 });
    await logEntry(applicant, id, MONDAY, entry(MONDAY, 1_000));
    const last = await logEntry(applicant, id, MONDAY, entry(MONDAY, 440));
    expect(await refusal(logEntry(applicant, id, MONDAY, entry(MONDAY, 1)))).toMatchObject({
      status: 422,
      fields: { minutes: "entry_over_day" },
    });
    // Moving an entry to a full day is refused the same way; the week's total is untouched.
    const other = await logEntry(applicant, id, MONDAY, entry("2026-12-01", 10));
    expect(await refusal(editEntry(applicant, id, other.id, entry(MONDAY, 10)))).toMatchObject({ status: 422 });
    expect(await editEntry(applicant, id, last.id, entry(MONDAY, 430))).toMatchObject({ minutes: 430 });
    expect((await getWeek(applicant, id, MONDAY)).minutes_total).toBe(1_440);
  });

  it("never passes the cap with entries written at once", async () => {
    const { applicant, id } = await fundedWeek({ cap_hours: 10 });
    const days = ["2026-11-30", "2026-12-01", "2026-12-02"];
    const results = await Promise.all(
      Array.from({ length: 9 }, (_, i) => outcome(logEntry(applicant, id, MONDAY, entry(days[i % 3]!, 100)))),
    );
    expect(results.filter((s) => s === 200)).toHaveLength(6);
    expect(results.filter((s) => s !== 200).every((s) => s === 422)).toBe(true);
    const week = await getWeek(applicant, id, MONDAY);
    expect(week.minutes_total).toBe(600);
    expect(week.entries.reduce((sum, e) => sum + e.minutes, 0)).toBe(600);
  });
});

describe("a week's submission and approval", () => {
  it("locks the entries once submitted and opens the next week for its funding", async () => {
    const { owner, applicant, id } = await fundedWeek();
    const logged = await logEntry(applicant, id, MONDAY, entry(MONDAY, 90));
    expect(await refusal(submitWeek(owner, id, MONDAY))).toMatchObject({ status: 403 });
    const submitted = await submitWeek(applicant, id, MONDAY);
    expect(submitted).toMatchObject({
      status: "submitted",
      submitted_by: "freelancer",
      review_due_at: "2026-12-07T18:00:00.000Z",
      allowed_actions: [],
    });
    expect(await refusal(submitWeek(applicant, id, MONDAY))).toMatchObject({ status: 409, key: "week_not_open" });
    expect(await refusal(editEntry(applicant, id, logged.id, entry(MONDAY, 60)))).toMatchObject({
      status: 409,
      key: "week_not_open",
    });
    expect(await refusal(deleteEntry(applicant, id, logged.id))).toMatchObject({ status: 409 });
    expect(await refusal(logEntry(applicant, id, MONDAY, entry(MONDAY, 60)))).toMatchObject({ status: 409 });
    const weeks = await listWeeks(owner, id);
    expect(weeks.map((w) => [w.week_start, w.status, w.allowed_actions])).toEqual([
      [NEXT_MONDAY, "awaiting_funding", []],
      [MONDAY, "submitted", ["approve", "question"]],
    ]);
    // The merchant funds the next week while reviewing this one.
    expect((await getContract(owner, id)).allowed_actions).toEqual(["fund"]);
    await fund(owner, id);
    expect((await listWeeks(owner, id))[0]).toMatchObject({ week_start: NEXT_MONDAY, status: "open" });
  });

  it("releases floor(minutes × rate / 60) less the fee and refunds the rest, once; the ledger balances", async () => {
    const rate = 10_001;
    const { owner, applicant, id } = await fundedWeek({ rate_cents: rate, cap_hours: 10 });
    await logEntry(applicant, id, MONDAY, entry(MONDAY, 400));
    await logEntry(applicant, id, MONDAY, entry("2026-12-01", 37));
    await submitWeek(applicant, id, MONDAY);
    expect(await refusal(approveWeek(applicant, id, MONDAY))).toMatchObject({ status: 403 });

    const released = Math.floor((437 * rate) / 60); // 72 840,61… → 72 840
    const fee = feeOf(released, 1_000);
    const funded = rate * 10;
    const results = await Promise.all([
      outcome(approveWeek(owner, id, MONDAY)),
      outcome(approveWeek(owner, id, MONDAY)),
    ]);
    expect(results.sort()).toEqual([200, 409]);

    const week = await getWeek(owner, id, MONDAY);
    expect(week).toMatchObject({
      status: "approved",
      approved_by: "merchant",
      money: {
        amount_cents: funded,
        released_cents: released,
        fee_cents: fee,
        net_cents: released - fee,
        refunded_cents: funded - released,
      },
    });
    expect(released).toBe(72_840);
    const milestone = await db
      .selectFrom("milestones")
      .selectAll()
      .where("id", "=", week.milestone_id)
      .executeTakeFirstOrThrow();
    expect(milestone).toMatchObject({
      status: "released",
      released_cents: released,
      fee_cents: fee,
      refunded_cents: funded - released,
    });
    expect(await balanceOf(account.available(applicant.id))).toBe(released - fee);
    expect(await balanceOf(account.fees)).toBeGreaterThanOrEqual(fee);
    expect(await balanceOf(account.escrow(milestone.id))).toBe(0);
    const refunds = await db.selectFrom("refunds").selectAll().where("contract_id", "=", id).execute();
    expect(refunds.map((r) => [r.amount_cents, r.status])).toEqual([[funded - released, "due"]]);
    const entries = await db
      .selectFrom("ledger_entries as e")
      .innerJoin("ledger_transactions as t", "t.id", "e.transaction_id")
      .select(["t.kind", "e.amount_cents"])
      .where("t.contract_id", "=", id)
      .execute();
    expect(entries.reduce((sum, e) => sum + Number(e.amount_cents), 0)).toBe(0);
    expect(await checkLedger()).toEqual([]);
  });

  it("refunds the whole week when no time was logged", async () => {
    const { owner, applicant, id } = await fundedWeek({ rate_cents: 5_000, cap_hours: 2 });
    await submitWeek(applicant, id, MONDAY);
    await approveWeek(owner, id, MONDAY);
    const week = await getWeek(owner, id, MONDAY);
    expect(week.money).toMatchObject({ released_cents: 0, fee_cents: 0, refunded_cents: 10_000 });
    expect(await balanceOf(account.available(applicant.id))).toBe(0);
    expect(await checkLedger()).toEqual([]);
  });
});

/** This file's weeks in `status` that are due now (the schedule moves every one of them, once). */
async function weeksIn(status: "open" | "submitted" | "awaiting_funding") {
  const rows = await db
    .selectFrom("contract_weeks")
    .select("id")
    .where("status", "=", status)
    .$if(status === "submitted", (qb) => qb.where("review_due_at", "<=", new Date().toISOString()))
    .$if(status !== "submitted", (qb) => qb.where("week_start", "<=", MONDAY))
    .execute();
  return rows.length;
}

describe("the schedule", () => {
  it("submits last week's open weeks on Monday at 12:00 São Paulo, once with two servers, and approves after 5 days, once", async () => {
    const { owner, applicant, id } = await fundedWeek({ rate_cents: 6_000, cap_hours: 10 });
    await logEntry(applicant, id, MONDAY, entry(MONDAY, 125));
    // Monday 7 December 11:59 in São Paulo: not yet.
    clock("2026-12-07T14:59:00.000Z");
    await runHourlySchedule(new Date());
    expect((await getWeek(owner, id, MONDAY)).status).toBe("open");
    // 12:00: two servers at once submit it once (and every other week due, once), and open the
    // next week once.
    clock("2026-12-07T15:00:00.000Z");
    const due = await weeksIn("open");
    const runs = await Promise.all([runHourlySchedule(new Date()), runHourlySchedule(new Date())]);
    expect(runs.reduce((n, r) => n + r.submitted, 0)).toBe(due);
    expect(await getWeek(owner, id, MONDAY)).toMatchObject({ status: "submitted", submitted_by: "system" });
    expect((await listWeeks(owner, id)).map((w) => [w.week_start, w.status])).toEqual([
      [NEXT_MONDAY, "awaiting_funding"],
      [MONDAY, "submitted"],
    ]);

    clock("2026-12-12T14:59:00.000Z");
    await runHourlySchedule(new Date());
    expect((await getWeek(owner, id, MONDAY)).status).toBe("submitted");
    clock("2026-12-12T15:00:00.000Z");
    const waiting = await weeksIn("submitted");
    const later = await Promise.all([runHourlySchedule(new Date()), runHourlySchedule(new Date())]);
    expect(later.reduce((n, r) => n + r.approved, 0)).toBe(waiting);
    const week = await getWeek(owner, id, MONDAY);
    expect(week).toMatchObject({ status: "approved", approved_by: "system" });
    // 125 minutes at R$ 60,00 an hour: R$ 125,00.
    expect(await balanceOf(account.available(applicant.id))).toBe(12_500 - feeOf(12_500, 1_000));
    expect(await checkLedger()).toEqual([]);
  });

  it("lets an unfunded week lapse at its Monday 12:00 and opens the current week instead", async () => {
    const { owner, applicant, id } = await hiredHourly();
    clock("2026-12-07T15:00:00.000Z");
    const due = await weeksIn("awaiting_funding");
    const runs = await Promise.all([runHourlySchedule(new Date()), runHourlySchedule(new Date())]);
    expect(runs.reduce((n, r) => n + r.lapsed, 0)).toBe(due);
    expect((await listWeeks(applicant, id)).map((w) => [w.week_start, w.status])).toEqual([
      [NEXT_MONDAY, "awaiting_funding"],
      [MONDAY, "lapsed"],
    ]);
    expect((await getContract(owner, id)).milestones.map((m) => m.status)).toEqual(["cancelled", "awaiting_funding"]);
    await fund(owner, id);
    expect((await listWeeks(applicant, id))[0]).toMatchObject({ week_start: NEXT_MONDAY, status: "open" });
    expect(await checkLedger()).toEqual([]);
  });
});

describe("ending an hourly contract", () => {
  it("keeps the week in hand as the last: no week opens after it, and its approval completes the contract", async () => {
    const { owner, applicant, id } = await fundedWeek({ rate_cents: 6_000, cap_hours: 4 });
    await logEntry(applicant, id, MONDAY, entry(MONDAY, 60));
    expect(await endHourlyContract(applicant, id)).toMatchObject([{ week_start: MONDAY, status: "open" }]);
    expect(await refusal(endHourlyContract(owner, id))).toMatchObject({ status: 409 });
    expect(await getContract(owner, id)).toMatchObject({ status: "in_progress", paused_from: NEXT_MONDAY });
    await submitWeek(applicant, id, MONDAY);
    expect((await listWeeks(owner, id)).map((w) => w.week_start)).toEqual([MONDAY]);
    await approveWeek(owner, id, MONDAY);
    expect(await getContract(owner, id)).toMatchObject({ status: "completed", ended_by: "merchant" });
    expect(await balanceOf(account.available(applicant.id))).toBe(6_000 - feeOf(6_000, 1_000));
    expect(await checkLedger()).toEqual([]);
  });

  it("ending while the week is sent at the same moment: no week is left to fund, and the approval completes it", async () => {
    const { owner, applicant, id } = await fundedWeek();
    const results = await Promise.all([
      outcome(endHourlyContract(owner, id)),
      outcome(submitWeek(applicant, id, MONDAY)),
    ]);
    expect(results).toEqual([200, 200]);
    const weeks = await listWeeks(owner, id);
    expect(weeks.filter((w) => w.status === "awaiting_funding" || w.status === "open")).toEqual([]);
    expect((await getContract(owner, id)).paused_from).not.toBeNull();
    await approveWeek(owner, id, MONDAY);
    expect(await getContract(owner, id)).toMatchObject({ status: "completed" });
    expect(await checkLedger()).toEqual([]);
  });

  it("drops a week still waiting for its money and completes the contract at once", async () => {
    const { owner, applicant, id } = await fundedWeek();
    await submitWeek(applicant, id, MONDAY);
    await approveWeek(owner, id, MONDAY);
    // The next week waits for its money: ending drops it (its charge withdrawn) and completes.
    await endHourlyContract(owner, id);
    expect((await listWeeks(owner, id)).map((w) => [w.week_start, w.status])).toEqual([
      [NEXT_MONDAY, "lapsed"],
      [MONDAY, "approved"],
    ]);
    expect(await getContract(applicant, id)).toMatchObject({ status: "completed", ended_by: "merchant" });
    expect((await getContract(owner, id)).milestones.map((m) => m.status)).toEqual(["refunded", "cancelled"]);
    expect(await checkLedger()).toEqual([]);
  });
});

describe("São Paulo's calendar, from a UTC clock", () => {
  it("Sunday 23:59 is still the week's last day; Monday 00:00 is the next week's first", async () => {
    const { applicant, id } = await fundedWeek();
    // Sunday 6 December, 23:59 in São Paulo (already Monday in UTC).
    clock("2026-12-07T02:59:00.000Z");
    expect(await logEntry(applicant, id, MONDAY, entry("2026-12-06", 30))).toMatchObject({ day: "2026-12-06" });
    // Monday 00:00: the week is still open until 12:00, and a hire now starts in the new week.
    clock("2026-12-07T03:00:00.000Z");
    expect(await logEntry(applicant, id, MONDAY, entry("2026-12-06", 30))).toMatchObject({ minutes: 30 });
    const late = await hiredHourly();
    expect((await listWeeks(late.applicant, late.id)).map((w) => w.week_start)).toEqual([NEXT_MONDAY]);
    clock("2026-12-07T02:59:00.000Z");
    const early = await hiredHourly();
    expect((await listWeeks(early.applicant, early.id)).map((w) => w.week_start)).toEqual([MONDAY]);
  });
});

describe("without payments", () => {
  it("opens the week at once and approves it without money", async () => {
    config.PAYMENTS = "off";
    const { owner, applicant, id } = await hiredHourly({ rate_cents: 8_000, cap_hours: 5 });
    expect((await listWeeks(applicant, id))[0]).toMatchObject({ status: "open", money: { refunded_cents: 0 } });
    expect((await getContract(owner, id)).allowed_actions).toEqual([]);
    await logEntry(applicant, id, MONDAY, entry(MONDAY, 90));
    await submitWeek(applicant, id, MONDAY);
    await approveWeek(owner, id, MONDAY);
    expect(await getWeek(owner, id, MONDAY)).toMatchObject({
      status: "approved",
      money: { released_cents: 12_000, fee_cents: 0, net_cents: 12_000, refunded_cents: 0 },
    });
    const ledger = await db.selectFrom("ledger_transactions").select("id").where("contract_id", "=", id).execute();
    expect(ledger).toEqual([]);
    expect(await checkLedger()).toEqual([]);
  });
});

describe("the copy of a user's data", () => {
  it("holds the weeks for both sides and the entries in the freelancer's copy only", async () => {
    const { owner, applicant, id } = await fundedWeek({ cap_hours: 10 });
    await logEntry(applicant, id, MONDAY, entry(MONDAY, 90, "Reunião de alinhamento com a equipe."));
    const weekOf = async (userId: string) => {
      const { kinds } = await collectPersonalData(userId);
      return (kinds["timesheets.json"] as { contract_id: string; minutes_total: number; entries: unknown[] }[]).find(
        (w) => w.contract_id === id,
      );
    };
    expect(await weekOf(applicant.id)).toMatchObject({
      minutes_total: 90,
      entries: [{ day: MONDAY, minutes: 90, description: "Reunião de alinhamento com a equipe.", answer: null }],
    });
    expect(await weekOf(owner.id)).toMatchObject({ minutes_total: 90, entries: [] });
  });
});
