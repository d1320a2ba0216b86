import { readFileSync } from "node:fs";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { db, engine } from "../../db";
import { demoAccounts, demoLoginLines, demoLogins, seedDemo } from "../../db/seed";
import { CATEGORIES } from "~/lib/market-schemas";
import { listAwaitingConfirmation, listMyApplications } from "~/services/marketplace/applications.server";
import { listOpportunities } from "~/services/marketplace/opportunities.server";
import { runContractSchedule } from "~/services/contracts/contracts.server";
import { runHourlySchedule, WEEK_REVIEW_DAYS } from "~/services/contracts/hourly.server";
import { addDays, autoSubmitAt, dayInSaoPaulo, weekStartOf } from "~/lib/work-weeks";
import { hourlyDates } from "../../db/seed-hourly";
import { brokenInvariants } from "../support/market";

const userByEmail = (email: string) =>
  db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();

beforeAll(async () => {
  expect(await seedDemo(db)).toBe(true);
});

describe("demo seed", () => {
  it("runs once: a database with users is left alone", async () => {
    expect(await seedDemo(db)).toBe(false);
    const { n } = await db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(demoAccounts.users.length);
  });

  it("makes the demo accounts with their e-mail confirmed, so they write at once", async () => {
    const users = await db.selectFrom("users").select(["email", "email_verified_at"]).execute();
    expect(users.map((u) => u.email).sort()).toEqual(demoAccounts.users.map((u) => u.email).sort());
    for (const user of users) expect(user.email_verified_at).toEqual(expect.any(String));
  });

  it("covers every category with about 60 opportunities and every application state", async () => {
    const opportunities = await db.selectFrom("opportunities").select(["category", "status"]).execute();
    expect(opportunities.length).toBeGreaterThanOrEqual(55);
    expect(new Set(opportunities.map((o) => o.category))).toEqual(new Set(CATEGORIES));
    expect(new Set(opportunities.map((o) => o.status))).toEqual(new Set(["open", "closed", "filled"]));
    const statuses = await db.selectFrom("applications").select("status").distinct().execute();
    expect(new Set(statuses.map((s) => s.status))).toEqual(
      new Set(["pending", "countered", "accepted", "rejected", "withdrawn"]),
    );
    const reasons = await db.selectFrom("applications").select("rejection_reason").distinct().execute();
    expect(new Set(reasons.map((r) => r.rejection_reason))).toEqual(new Set([null, "declined", "filled", "closed"]));
  });

  it("finishes the older hires with published reviews both ways, and ratings that add them up", async () => {
    const completed = await db
      .selectFrom("contracts")
      .select(["id", "reviews_count", "events_count"])
      .where("status", "=", "completed")
      .execute();
    expect(completed.length).toBeGreaterThanOrEqual(2);
    expect(completed.every((c) => c.reviews_count === 2 && c.events_count === 3)).toBe(true);
    const reviews = await db.selectFrom("reviews").select(["subject_id", "rating", "published_at"]).execute();
    expect(reviews).toHaveLength(completed.length * 2);
    expect(reviews.every((r) => r.published_at !== null)).toBe(true);
    const users = await db.selectFrom("users").select(["id", "rating_count", "rating_sum"]).execute();
    for (const u of users) {
      const mine = reviews.filter((r) => r.subject_id === u.id);
      expect([u.rating_count, u.rating_sum]).toEqual([mine.length, mine.reduce((n, r) => n + r.rating, 0)]);
    }
    // Every hired freelancer still has work in progress (their newest hire).
    const hired = await db.selectFrom("contracts").select("freelancer_id").distinct().execute();
    const working = await db
      .selectFrom("contracts")
      .select("freelancer_id")
      .distinct()
      .where("status", "=", "in_progress")
      .execute();
    expect(working.length).toBe(hired.length);
  });

  it("keeps the same invariants as the services", async () => {
    expect(await brokenInvariants()).toEqual([]);
  });

  it("Ana has applications waiting for her; Júlia has them in several states, countered ones waiting for her", async () => {
    const ana = await userByEmail("ana@freela.dev");
    const julia = await userByEmail("julia@freela.dev");
    const anaWaiting = await listAwaitingConfirmation(ana, {});
    expect(anaWaiting.meta.total).toBeGreaterThanOrEqual(3);
    expect((await listOpportunities(ana, {})).meta.total).toBeGreaterThanOrEqual(6);
    const juliaWaiting = await listAwaitingConfirmation(julia, {});
    expect(juliaWaiting.data.length).toBeGreaterThanOrEqual(1);
    expect(juliaWaiting.data.every((a) => a.status === "countered" && a.awaiting === "freelancer")).toBe(true);
    const mine = await listMyApplications(julia, {});
    expect(new Set(mine.data.map((a) => a.status))).toEqual(
      new Set(["pending", "countered", "accepted", "rejected", "withdrawn"]),
    );
  });

  it("notifications follow the stories, some read and some not", async () => {
    const rows = await db.selectFrom("notifications").select(["kind", "read_at"]).execute();
    expect(new Set(rows.map((r) => r.kind))).toEqual(
      new Set([
        "application_received",
        "offer_received",
        "application_accepted",
        "application_rejected",
        "application_withdrawn",
        "invitation_received",
        "contract_overdue",
        "contract_week_submitted",
      ]),
    );
    expect(rows.some((r) => r.read_at === null)).toBe(true);
    expect(rows.some((r) => r.read_at !== null)).toBe(true);
  });

  it("has read what its recipient answered since: no unread news about an application they acted on after", async () => {
    const stale = await sql<{ id: string }>`
      SELECT n.id FROM notifications n
      JOIN applications a ON a.id = n.application_id
      JOIN opportunities o ON o.id = a.opportunity_id
      WHERE n.read_at IS NULL AND n.kind IN ('application_received', 'offer_received') AND (
        (n.user_id = o.merchant_id AND EXISTS (SELECT 1 FROM offers f WHERE f.application_id = a.id
          AND f.author = 'merchant' AND f.created_at > n.created_at))
        OR (n.user_id = a.freelancer_id AND EXISTS (SELECT 1 FROM offers f WHERE f.application_id = a.id
          AND f.author = 'freelancer' AND f.created_at > n.created_at)))`.execute(db);
    expect(stale.rows).toEqual([]);
  });

  it("records late hires as late, so a new server's first run of the contracts' schedule announces nothing", async () => {
    const late = await db
      .selectFrom("contracts")
      .select(["id", "overdue_at", "due_at"])
      .where("status", "=", "in_progress")
      .where("due_at", "<", new Date().toISOString())
      .execute();
    expect(late.length).toBeGreaterThan(0);
    expect(late.every((c) => c.overdue_at === c.due_at)).toBe(true);
    expect(await runContractSchedule()).toEqual({ completed: 0, reminded: 0, overdue: 0 });
    const { n } = await db
      .selectFrom("outbox")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(0);
  });

  it("the README lists exactly the logins npm run demo prints, and each shows what they say", async () => {
    const readme = readFileSync("README.md", "utf8");
    const listed = [...readme.matchAll(/^\| `([^`]+@freela\.dev)` \| (.+) \|$/gm)].map((m) => ({
      email: m[1],
      about: m[2],
    }));
    expect(listed).toEqual(demoLogins.map((l) => ({ email: l.email, about: l.about })));
    const lines = demoLoginLines();
    expect(lines[0]).toContain(demoAccounts.password);
    expect(lines.slice(1).map((l) => l.trim().split(/\s+/)[0])).toEqual(demoLogins.map((l) => l.email));
    const contracts = async (email: string, status: string) => {
      const user = await userByEmail(email);
      return db
        .selectFrom("contracts")
        .select(["id", "overdue_at"])
        .where("status", "=", status as "in_progress")
        .where((eb) => eb.or([eb("merchant_id", "=", user.id), eb("freelancer_id", "=", user.id)]))
        .execute();
    };
    expect(await contracts("ana@freela.dev", "in_progress")).toHaveLength(2);
    expect(await contracts("carlos@freela.dev", "in_progress")).toHaveLength(2);
    const julia = await contracts("julia@freela.dev", "in_progress");
    expect(julia.map((c) => c.overdue_at !== null).sort()).toEqual([false, true]);
    expect(await contracts("pedro@freela.dev", "in_progress")).toHaveLength(1);
    expect((await contracts("pedro@freela.dev", "completed")).length).toBeGreaterThan(0);
    const juliaId = (await userByEmail("julia@freela.dev")).id;
    expect(await db.selectFrom("invitations").select("id").where("freelancer_id", "=", juliaId).execute()).toHaveLength(
      1,
    );
  });

  it("leaves the operator open reports of two targets and one answered dispute on a frozen contract", async () => {
    const reports = await db.selectFrom("reports").select(["target_type", "target_id", "status"]).execute();
    expect(reports.every((r) => r.status === "open")).toBe(true);
    expect(new Set(reports.map((r) => `${r.target_type}:${r.target_id}`)).size).toBe(2);
    expect(reports).toHaveLength(3);
    const disputes = await db
      .selectFrom("disputes")
      .innerJoin("contracts", "contracts.id", "disputes.contract_id")
      .select([
        "disputes.status",
        "disputes.answered_at",
        "contracts.disputed_at",
        "contracts.status as contract_status",
      ])
      .execute();
    expect(disputes).toEqual([
      {
        status: "open",
        answered_at: expect.any(String),
        disputed_at: expect.any(String),
        contract_status: "in_progress",
      },
    ]);
    // The README's logins are on neither side.
    const logins = new Set(
      await Promise.all(
        ["ana", "carlos", "julia", "pedro"].map(async (n) => (await userByEmail(`${n}@freela.dev`)).id),
      ),
    );
    const parties = await db
      .selectFrom("disputes")
      .innerJoin("contracts", "contracts.id", "disputes.contract_id")
      .select(["contracts.merchant_id", "contracts.freelancer_id"])
      .executeTakeFirstOrThrow();
    expect(logins.has(parties.merchant_id) || logins.has(parties.freelancer_id)).toBe(false);
  });

  it("has an hourly contract between Ana and Júlia: a week in review with its entries, the next one, nothing due for the schedule", async () => {
    const ana = await userByEmail("ana@freela.dev");
    const julia = await userByEmail("julia@freela.dev");
    const contract = await db
      .selectFrom("contracts")
      .selectAll()
      .where("kind", "=", "hourly")
      .executeTakeFirstOrThrow();
    expect([contract.merchant_id, contract.freelancer_id, contract.status]).toEqual([ana.id, julia.id, "in_progress"]);
    const weeks = await db
      .selectFrom("contract_weeks")
      .selectAll()
      .where("contract_id", "=", contract.id)
      .orderBy("week_start")
      .execute();
    expect(weeks.map((w) => w.status)).toEqual(["submitted", expect.stringMatching(/^(open|awaiting_funding)$/)]);
    expect(Date.parse(weeks[0]!.review_due_at!)).toBeGreaterThan(Date.now());
    const entries = await db.selectFrom("time_entries").select(["week_id", "minutes"]).execute();
    for (const week of weeks) {
      const mine = entries.filter((e) => e.week_id === week.id);
      expect(week.minutes_total).toBe(mine.reduce((n, e) => n + e.minutes, 0));
      expect(week.minutes_total).toBeLessThanOrEqual(week.cap_minutes);
    }
    expect(weeks[0]!.minutes_total).toBeGreaterThan(0);
    expect(await runHourlySchedule()).toEqual({ submitted: 0, lapsed: 0, approved: 0 });
  });

  it("places the hourly contract's weeks so that, any day and hour it starts, nothing is due for the schedule", () => {
    // Every hour of two weeks.
    for (let t = Date.parse("2026-11-16T03:00:00.000Z"); t < Date.parse("2026-11-30T03:00:00.000Z"); t += 3_600_000) {
      const d = hourlyDates(t);
      const where = new Date(t).toISOString();
      expect(d.postedAt < d.hiredAt && d.hiredAt < d.submittedAt && d.submittedAt < t, where).toBe(true);
      expect(weekStartOf(dayInSaoPaulo(new Date(d.hiredAt))), where).toBe(d.reviewWeek);
      // Sent before the schedule would have sent it, and its review not due yet.
      expect(d.submittedAt <= autoSubmitAt(d.reviewWeek).getTime(), where).toBe(true);
      expect(d.submittedAt + WEEK_REVIEW_DAYS * 86_400_000 > t + 3_600_000, where).toBe(true);
      // The week after it has started (it takes entries up to today) unless this week is the one sent.
      expect(d.early || addDays(d.reviewWeek, 7) <= d.today, where).toBe(true);
    }
  });

  it("every demo account signs in with the demo password", async () => {
    const bcrypt = (await import("bcryptjs")).default;
    for (const account of demoAccounts.users) {
      const user = await userByEmail(account.email);
      expect(await bcrypt.compare(demoAccounts.password, user.password_hash)).toBe(true);
    }
  });
});

// The volume seed writes through SQLite directly (benchmarks on PostgreSQL copy its output).
describe.skipIf(engine !== "sqlite")("volume seed", () => {
  it("adds consistent, searchable data and rebuilds every index it dropped", async () => {
    const sqlite = (await import("../../db")).sqlite!;
    const { seedVolume } = await import("../../db/bulk-seed");
    const indexesBefore = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name").all();
    const result = seedVolume(sqlite, 300);
    expect(result).toMatchObject({ opportunities: 300 });
    expect(result.applications).toBeGreaterThanOrEqual(600);
    expect(sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name").all()).toEqual(
      indexesBefore,
    );
    expect(await brokenInvariants()).toEqual([]);
    // Every hire has its contract.
    const { hires, contracts } = sqlite
      .prepare(
        "SELECT (SELECT count(*) FROM applications WHERE status = 'accepted') AS hires, (SELECT count(*) FROM contracts) AS contracts",
      )
      .get() as { hires: number; contracts: number };
    expect(hires).toBeGreaterThan(0);
    expect(contracts).toBe(hires);
    const freelancer = await db
      .selectFrom("users")
      .selectAll()
      .where("email", "like", "bulk-%")
      .where("account_type", "=", "freelancer")
      .executeTakeFirstOrThrow();
    expect((await listOpportunities(freelancer, { q: "pizzaria" })).meta.total).toBeGreaterThan(0);
  });
});
