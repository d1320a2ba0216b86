import type { Transaction } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "../../db";
import type { Database } from "../../db/schema";
import {
  changeWeeklyCap,
  endHourlyContract,
  listWeeks,
  pauseHourlyContract,
  resumeHourlyContract,
  runHourlySchedule,
} from "~/services/contracts/hourly.server";
import { endMonthlyContract, runMonthlySchedule } from "~/services/contracts/monthly.server";
import { checkLedger } from "~/services/payments/ledger.server";
import { confirmReceipt, issueCharge } from "~/services/payments/charges.server";
import { e2eId, hiredHourly, hiredMonthly, operator } from "../payments/support";
import { outcome } from "../support/market";
import { clock, fundedWeek, hourlyClock, MONDAY, submittedWeek } from "./hourly-support";

// The order the rows are locked in (docs/payments.md, "Contratos por hora"): a move of the
// schedule and a move of a side, at once, on the same contract, many times. PostgreSQL breaks a
// deadlock by ending one of the two transactions (40P01) and transaction() runs it again, so the
// outcome alone would not show one: every transaction PostgreSQL ends for a deadlock is counted here
// (around db.transaction(), which transaction() begins each attempt with). None may happen: each path takes the contract's row before the week's milestone.

let deadlocks = 0;
beforeAll(() => {
  const begin = db.transaction.bind(db);
  vi.spyOn(db, "transaction").mockImplementation(() => {
    const builder = begin();
    const execute = builder.execute.bind(builder);
    return Object.assign(builder, {
      execute: async <T>(work: (trx: Transaction<Database>) => Promise<T>) => {
        try {
          return await execute(work);
        } catch (error) {
          if ((error as { code?: string }).code === "40P01") deadlocks++;
          throw error;
        }
      },
    });
  });
});
afterAll(() => vi.restoreAllMocks());

hourlyClock();

const ROUNDS = 30;
const contractRow = (id: string) =>
  db.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const statuses = async (id: string) =>
  (await db.selectFrom("contract_weeks").select("status").where("contract_id", "=", id).execute()).map((w) => w.status);
/** Round `round`'s minute past `hour` (UTC) on `day`, so each round's moves are its own. */
const minute = (day: string, hour: number, round: number) =>
  `${day}T${String(hour).padStart(2, "0")}:${String(round).padStart(2, "0")}:00.000Z`;

/**
 * ROUNDS rounds of `round` (from a hire on Wednesday 2 December, 15:00 in São Paulo), then none
 * of their transactions ended by a deadlock unless `deadlocks` is false.
 */
async function rounds(round: (n: number) => Promise<void>, { deadlocks: counted = true } = {}) {
  deadlocks = 0;
  for (let n = 0; n < ROUNDS; n++) {
    clock("2026-12-02T18:00:00.000Z");
    await round(n);
  }
  if (counted) expect(deadlocks).toBe(0);
}

describe("the schedule and a side at once, on PostgreSQL and SQLite", () => {
  it("a week lapsing as the contract is ended: no deadlock, the contract completed, no week left to fund", async () => {
    await rounds(async (round) => {
      const { owner, id } = await hiredHourly();
      // Monday 7 December, 12:xx in São Paulo: the unfunded week of 30 November lapses.
      clock(minute("2026-12-07", 15, round));
      const [, ended] = await Promise.all([runHourlySchedule(new Date()), outcome(endHourlyContract(owner, id))]);
      expect(ended).toBe(200);
      expect(await contractRow(id)).toMatchObject({ status: "completed" });
      expect((await statuses(id)).every((s) => s === "lapsed")).toBe(true);
    });
  }, 120_000);

  it("a week lapsing as its Pix arrives: the money held or owed back, never lost", async () => {
    // Not counted: the payment takes the charge's row before the contract's (settleCharge), the
    // lapse after it (dropWeek supersedes the charge), so the two may still deadlock, and
    // transaction() runs the one PostgreSQL ended again.
    await rounds(
      async (round) => {
        const { owner, id } = await hiredHourly();
        const { charge } = await issueCharge(owner, id);
        // The Pix is confirmed as the week lapses.
        clock(minute("2026-12-07", 16, round));
        await Promise.all([
          runHourlySchedule(new Date()),
          confirmReceipt(operator, charge.id, { e2e_id: e2eId(), amount_cents: charge.amount_cents }),
        ]);
        const week = (await listWeeks(owner, id)).find((w) => w.week_start === MONDAY)!;
        expect(["open", "lapsed"]).toContain(week.status);
        // Lapsed first: the Pix that came after it is owed back to the merchant.
        const refunds = await db.selectFrom("refunds").select("status").where("charge_id", "=", charge.id).execute();
        expect(refunds.map((r) => r.status)).toEqual(week.status === "lapsed" ? ["due"] : []);
      },
      { deadlocks: false },
    );
    expect(await checkLedger()).toEqual([]);
  }, 120_000);

  it("a week lapsing as the contract is paused: no deadlock, the pause stands", async () => {
    await rounds(async (round) => {
      const { applicant, id } = await hiredHourly();
      clock(minute("2026-12-07", 17, round));
      const [, paused] = await Promise.all([
        runHourlySchedule(new Date()),
        outcome(pauseHourlyContract(applicant, id)),
      ]);
      expect(paused).toBe(200);
      expect((await contractRow(id)).hourly_paused_from).not.toBeNull();
      expect(await statuses(id)).toContain("lapsed");
    });
  }, 120_000);

  it("a week lapsing as the paused contract is resumed: no deadlock, one week in hand", async () => {
    await rounds(async (round) => {
      const { applicant, id } = await hiredHourly();
      await pauseHourlyContract(applicant, id);
      clock(minute("2026-12-07", 18, round));
      const [, resumed] = await Promise.all([
        runHourlySchedule(new Date()),
        outcome(resumeHourlyContract(applicant, id)),
      ]);
      expect(resumed).toBe(200);
      expect((await statuses(id)).filter((s) => s === "awaiting_funding")).toHaveLength(1);
    });
  }, 120_000);

  it("a week sent by the schedule as the paused contract is resumed: no deadlock, one week in hand", async () => {
    await rounds(async (round) => {
      const { applicant, id } = await fundedWeek();
      await pauseHourlyContract(applicant, id);
      clock(minute("2026-12-07", 20, round));
      const [, resumed] = await Promise.all([
        runHourlySchedule(new Date()),
        outcome(resumeHourlyContract(applicant, id)),
      ]);
      expect(resumed).toBe(200);
      expect((await statuses(id)).sort()).toEqual(["awaiting_funding", "submitted"]);
    });
  }, 120_000);

  it("a paused contract resumed as it is ended: no deadlock, the contract completed", async () => {
    await rounds(async () => {
      const { owner, applicant, id } = await hiredHourly();
      await pauseHourlyContract(applicant, id);
      const [resumed, ended] = await Promise.all([
        outcome(resumeHourlyContract(applicant, id)),
        outcome(endHourlyContract(owner, id)),
      ]);
      // A resume after the end is 409: the contract is ended.
      expect([200, 409]).toContain(resumed);
      expect(ended).toBe(200);
      expect(await contractRow(id)).toMatchObject({ status: "completed" });
    });
  }, 120_000);

  it("a week approved by the schedule as the cap changes: no deadlock, both done", async () => {
    await rounds(async (round) => {
      const { owner, id } = await submittedWeek();
      // Five days after the submission: the week is approved by the schedule.
      clock(minute("2026-12-07", 19, round));
      const [, changed] = await Promise.all([
        runHourlySchedule(new Date()),
        outcome(changeWeeklyCap(owner, id, { weekly_cap_hours: 5 })),
      ]);
      expect(changed).toBe(200);
      expect((await contractRow(id)).weekly_cap_minutes).toBe(300);
      expect((await listWeeks(owner, id)).find((w) => w.week_start === MONDAY)!.status).toBe("approved");
    });
    expect(await checkLedger()).toEqual([]);
  }, 120_000);

  it("a month lapsing as the monthly contract is ended: no deadlock, no month left to fund", async () => {
    await rounds(async (round) => {
      const { owner, id } = await hiredMonthly();
      // Saturday 5 December, three days after the month's start: the unfunded month lapses.
      clock(minute("2026-12-05", 18, round));
      const [, ended] = await Promise.all([runMonthlySchedule(new Date()), outcome(endMonthlyContract(owner, id))]);
      // The end answers 409 when the lapse came first (the month it would drop was dropped).
      expect([200, 409]).toContain(ended);
      const waiting = await db
        .selectFrom("milestones")
        .select("id")
        .where("contract_id", "=", id)
        .where("status", "=", "awaiting_funding")
        .execute();
      expect(waiting).toEqual([]);
    });
  }, 120_000);
});
