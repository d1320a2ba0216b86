import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { insertWeek } from "../../db/contracts";
import { config } from "~/config.server";
import { feeOf } from "~/lib/fees";
import { addDays } from "~/lib/work-weeks";
import { listWeeks, logEntry, runHourlySchedule } from "~/services/contracts/hourly.server";
import { account, balanceOf, checkLedger } from "~/services/payments/ledger.server";
import { hiredHourly } from "../payments/support";
import { clock, entry, fundedWeek, hourlyClock, MONDAY, NEXT_MONDAY } from "./hourly-support";

// The hourly schedule (docs/payments.md, "Contratos por hora"): one run takes batch after batch
// while they come full (within its time budget), and two servers running it at once make each
// move once: one submission, one lapse, one approval, one release in the ledger.

hourlyClock();

/** The weeks the clock's present moment moved, by what moved them (any contract of this file). */
async function movedNow() {
  const now = new Date().toISOString();
  const rows = await db
    .selectFrom("contract_weeks")
    .select(["status", "submitted_at", "approved_at", "updated_at"])
    .execute();
  return {
    submitted: rows.filter((r) => r.submitted_at === now).length,
    lapsed: rows.filter((r) => r.status === "lapsed" && r.updated_at === now).length,
    approved: rows.filter((r) => r.approved_at === now).length,
  };
}

const sum = (results: Awaited<ReturnType<typeof runHourlySchedule>>[]) =>
  results.reduce(
    (all, r) => ({
      submitted: all.submitted + r.submitted,
      lapsed: all.lapsed + r.lapsed,
      approved: all.approved + r.approved,
    }),
    { submitted: 0, lapsed: 0, approved: 0 },
  );

describe("the schedule at scale", () => {
  it("one run approves every due week, past its batches of 200", async () => {
    config.PAYMENTS = "off";
    const { applicant, id } = await hiredHourly({ rate_cents: 6_000, cap_hours: 1 });
    const contract = await db.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    // 250 earlier weeks (a full batch and more), written straight to the tables, each sent and due for approval.
    const weeks = 250;
    const stamp = new Date().toISOString();
    for (let i = 1; i <= weeks; i++) {
      await insertWeek(db, contract, addDays(MONDAY, -7 * i), i + 1, stamp);
    }
    await db
      .updateTable("contract_weeks")
      .set({ status: "submitted", submitted_at: stamp, submitted_by: "system", review_due_at: stamp })
      .where("contract_id", "=", id)
      .where("week_start", "<", MONDAY)
      .execute();
    clock("2026-12-02T18:30:00.000Z");
    expect(await runHourlySchedule(new Date())).toEqual({ submitted: 0, lapsed: 0, approved: weeks });
    const statuses = (await listWeeks(applicant, id)).map((w) => w.status);
    expect(statuses.filter((s) => s === "approved")).toHaveLength(weeks);
    expect(statuses[0]).toBe("open");
    expect(await runHourlySchedule(new Date())).toEqual({ submitted: 0, lapsed: 0, approved: 0 });
  }, 30_000);
});

describe("two servers at once", () => {
  it("submit on Monday 12:00, then approve after 5 days and lapse the unpaid week: each once, one release", async () => {
    for (let round = 0; round < 3; round++) {
      clock("2026-12-02T18:00:00.000Z");
      const { owner, applicant, id } = await fundedWeek({ rate_cents: 6_000, cap_hours: 10 });
      await logEntry(applicant, id, MONDAY, entry(MONDAY, 90));
      const before = await balanceOf(account.available(applicant.id));

      // Each round at a minute of its own, so its moves are told apart from the rounds before.
      clock(`2026-12-07T15:3${round}:00.000Z`);
      const submitted = await Promise.all([runHourlySchedule(new Date()), runHourlySchedule(new Date())]);
      // Each week moved by one of the two runs: the two counts add up to the weeks moved.
      expect(sum(submitted)).toEqual(await movedNow());
      expect((await listWeeks(owner, id)).map((w) => [w.week_start, w.status])).toEqual([
        [NEXT_MONDAY, "awaiting_funding"],
        [MONDAY, "submitted"],
      ]);

      clock(`2026-12-14T15:3${round}:00.000Z`);
      const later = await Promise.all([runHourlySchedule(new Date()), runHourlySchedule(new Date())]);
      expect(sum(later)).toEqual(await movedNow());
      expect((await listWeeks(owner, id)).map((w) => [w.week_start, w.status])).toEqual([
        ["2026-12-14", "awaiting_funding"],
        [NEXT_MONDAY, "lapsed"],
        [MONDAY, "approved"],
      ]);
      const week = (await listWeeks(owner, id)).find((w) => w.week_start === MONDAY)!;
      const releases = await db
        .selectFrom("ledger_transactions")
        .select("id")
        .where("milestone_id", "=", week.milestone_id)
        .where("kind", "in", ["release", "split"])
        .execute();
      expect(releases).toHaveLength(1);
      // One notice of each move: the submission to the merchant, the approval to the freelancer.
      const told = await db
        .selectFrom("notifications")
        .select(["user_id", "kind"])
        .where("application_id", "=", id)
        .where("kind", "in", ["contract_week_submitted", "contract_week_approved"])
        .orderBy("kind")
        .execute();
      expect(told).toEqual([
        { user_id: applicant.id, kind: "contract_week_approved" },
        { user_id: owner.id, kind: "contract_week_submitted" },
      ]);
      // 90 minutes at R$ 60,00 an hour: R$ 90,00, less the fee.
      expect(await balanceOf(account.available(applicant.id))).toBe(before + 9_000 - feeOf(9_000, 1_000));
      expect(week.money.released_cents).toBe(9_000);
    }
    await checkLedger();
  }, 30_000);
});
