// Hourly contracts (`npm run bench -- --only hourly`; run.ts starts it in a process of its own,
// after `npm run build`): figures only, nothing asserted. SQLite, payments off, in a temporary
// directory.
//   1. The timesheet page: the hourly contract's page (/contracts/:id) for the freelancer, with
//      200 entries in the open week and 30 earlier weeks, through the server build's Remix handler
//      in this process (one process, one request at a time: req/s and CPU per request), and the
//      statements its loader sends (the route module's loader, counted at the prepared-statement cache).
//   2. The weekly job: runHourlySchedule over 10 000 hourly contracts whose open week is due, run
//      until nothing is left to submit (each run takes batches of SCHEDULE_BATCH weeks of each kind
//      while they come full, within SCHEDULE_BUDGET_MS), then
//      once more 6 days later (their reviews due): time per run and statements per run.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const CONTRACTS = Number(process.env.BENCH_HOURLY_CONTRACTS ?? 10_000);
const ENTRIES = 200;
const EARLIER_WEEKS = 30;
const PAGE_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const dir = mkdtempSync(join(os.tmpdir(), "freela-bench-hourly-"));
Object.assign(process.env, {
  DATABASE_PATH: join(dir, "freela.db"),
  UPLOADS_DIR: join(dir, "uploads"),
  BCRYPT_COST: "4",
  SEED_DEMO: "0",
  NODE_ENV: "production",
  SESSION_SECRET: "bench-secret-0123456789abcdef0123456789abcdef",
  APP_URL: "https://freela.example.com.br",
  // No timers of the build's own: the bench runs the job itself.
  CONTRACT_SCHEDULE_SECONDS: "0",
  OUTBOX_SECONDS: "0",
  SAVED_SEARCH_SECONDS: "0",
});

const log = (message: string) => console.info(`[bench] ${message}`);
const ms = (n: number) => `${n.toFixed(1)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main() {
  const { db, migrateToLatest, statements } = await import("../db");
  const { insertWeek } = await import("../db/contracts");
  const { createApplication, createOpportunity, createUser } = await import("../db/factories");
  const { acceptOffer, getApplication } = await import("../app/services/marketplace/applications.server");
  const { createSession } = await import("../app/services/accounts/sessions.server");
  const { runHourlySchedule } = await import("../app/services/contracts/hourly.server");
  const { addDays, dayInSaoPaulo, weekStartOf } = await import("../app/lib/work-weeks");
  await migrateToLatest();
  if (!statements) throw new Error("the hourly bench runs on SQLite");
  const counted = statements;

  /** Statements `run` prepares (each query Kysely runs goes through the cache). */
  async function statementsOf(run: () => Promise<unknown>) {
    const prepare = counted.prepare.bind(counted);
    let n = 0;
    counted.prepare = ((sql: string) => {
      n++;
      return prepare(sql);
    }) as typeof counted.prepare;
    try {
      await run();
      return n;
    } finally {
      counted.prepare = prepare;
    }
  }

  /** An hourly hire (R$ 80,00 an hour, 40 h a week), accepted through the service. */
  async function hire() {
    const merchant = await createUser(db, { account_type: "merchant" });
    const freelancer = await createUser(db, { account_type: "freelancer" });
    const opportunity = await createOpportunity(db, { merchant_id: merchant.id, budget_type: "hourly" });
    const application = await createApplication(db, {
      opportunity,
      freelancer_id: freelancer.id,
      offers: [{ author: "freelancer", price_cents: 8_000, delivery_days: 30, weekly_cap_hours: 40 }],
    });
    const offer = (await getApplication(merchant, application.id)).offers.at(-1)!;
    await acceptOffer(merchant, application.id, { offer_id: offer.id });
    return { merchant, freelancer, id: application.id };
  }

  const today = dayInSaoPaulo(new Date());
  const monday = weekStartOf(today);

  // 1. The timesheet page.
  const page = await hire();
  const contract = await db.selectFrom("contracts").selectAll().where("id", "=", page.id).executeTakeFirstOrThrow();
  for (let i = 1; i <= EARLIER_WEEKS; i++) {
    await insertWeek(db, contract, addDays(monday, -7 * i), i + 1, new Date().toISOString());
  }
  await db.updateTable("contract_weeks").set({ status: "approved" }).where("week_start", "<", monday).execute();
  const week = await db
    .selectFrom("contract_weeks")
    .selectAll()
    .where("contract_id", "=", page.id)
    .where("week_start", "=", monday)
    .executeTakeFirstOrThrow();
  const at = new Date().toISOString();
  await db
    .insertInto("time_entries")
    .values(
      Array.from({ length: ENTRIES }, () => ({
        id: randomUUID(),
        week_id: week.id,
        contract_id: page.id,
        day: monday,
        minutes: 5,
        description: "Ajustes no formulário de encomendas do site.",
        question: null,
        answer: null,
        answered_at: null,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
  await db
    .updateTable("contract_weeks")
    .set({ minutes_total: ENTRIES * 5 })
    .where("id", "=", week.id)
    .execute();
  const { token } = await createSession(page.freelancer.id);
  const headers = { Authorization: `Bearer ${token}`, Accept: "text/html", "User-Agent": "bench" };
  const path = `/contracts/${page.id}`;

  const route = await import("../app/routes/contracts+/$id");
  const loaderStatements = await statementsOf(() =>
    route.loader({
      request: new Request(`http://localhost${path}`, { headers }),
      params: { id: page.id },
      context: {},
    }),
  );

  const { createRequestHandler, installGlobals } = await import("@remix-run/node");
  installGlobals();
  const build = await import(pathToFileURL(join(process.cwd(), "build/index.js")).href);
  const handler = createRequestHandler(build, "production");
  const get = async () => {
    const res = await handler(new Request(`http://localhost${path}`, { headers }));
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return (await res.text()).length;
  };
  const bytes = await get();
  for (let i = 0; i < 50; i++) await get();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let requests = 0;
  while (performance.now() - started < PAGE_SECONDS * 1000) {
    await get();
    requests++;
  }
  const elapsed = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  log(
    `timesheet page (${ENTRIES} entries, ${EARLIER_WEEKS + 1} weeks, ${Math.round(bytes / 1024)} KB): ` +
      `${(requests / elapsed).toFixed(0)} req/s in one process, one at a time, ` +
      `${((used.user + used.system) / 1000 / requests).toFixed(2)} ms CPU/req, ${loaderStatements} statements`,
  );

  // 2. The weekly job over CONTRACTS hourly contracts, their open week due: one hire, copied.
  const template = await hire();
  const due = addDays(monday, -14);
  await db.updateTable("contract_weeks").set({ week_start: due }).where("contract_id", "=", template.id).execute();
  const user = await db.selectFrom("users").selectAll().where("id", "=", template.freelancer.id).executeTakeFirst();
  const application = await db.selectFrom("applications").selectAll().where("id", "=", template.id).executeTakeFirst();
  const offers = await db.selectFrom("offers").selectAll().where("application_id", "=", template.id).execute();
  const contractRow = await db.selectFrom("contracts").selectAll().where("id", "=", template.id).executeTakeFirst();
  const milestone = await db
    .selectFrom("milestones")
    .selectAll()
    .where("contract_id", "=", template.id)
    .executeTakeFirst();
  const weekRow = await db
    .selectFrom("contract_weeks")
    .selectAll()
    .where("contract_id", "=", template.id)
    .executeTakeFirst();
  let seeded = performance.now();
  const chunk = 500;
  for (let start = 0; start < CONTRACTS; start += chunk) {
    await db.transaction().execute(async (trx) => {
      for (let i = start; i < Math.min(CONTRACTS, start + chunk); i++) {
        const freelancer = randomUUID();
        const id = randomUUID();
        const milestoneId = randomUUID();
        await trx
          .insertInto("users")
          .values({ ...user!, id: freelancer, email: `bench-hourly-${i}@freela.test` } as never)
          .execute();
        await trx
          .insertInto("applications")
          .values({ ...application!, id, freelancer_id: freelancer } as never)
          .execute();
        for (const offer of offers) {
          await trx
            .insertInto("offers")
            .values({ ...offer, id: randomUUID(), application_id: id } as never)
            .execute();
        }
        await trx
          .insertInto("contracts")
          .values({ ...contractRow!, id, freelancer_id: freelancer } as never)
          .execute();
        await trx
          .insertInto("milestones")
          .values({ ...milestone!, id: milestoneId, contract_id: id } as never)
          .execute();
        await trx
          .insertInto("contract_weeks")
          .values({ ...weekRow!, id: randomUUID(), contract_id: id, milestone_id: milestoneId } as never)
          .execute();
      }
    });
  }
  log(
    `${CONTRACTS.toLocaleString("en")} hourly contracts copied in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
  );

  const runs: { ms: number; statements: number; result: Awaited<ReturnType<typeof runHourlySchedule>> }[] = [];
  const runAt = async (when: Date) => {
    let result!: Awaited<ReturnType<typeof runHourlySchedule>>;
    const t0 = performance.now();
    const n = await statementsOf(async () => {
      result = await runHourlySchedule(when);
    });
    const run = { ms: performance.now() - t0, statements: n, result };
    runs.push(run);
    return run;
  };
  seeded = performance.now();
  let submitted = 0;
  for (;;) {
    const run = await runAt(new Date());
    submitted += run.result.submitted;
    if (run.result.submitted === 0) break;
  }
  const submitting = runs.filter((r) => r.result.submitted > 0);
  log(
    `weekly job, submitting: ${submitted.toLocaleString("en")} weeks in ${submitting.length} runs ` +
      `(${((performance.now() - seeded) / 1000).toFixed(1)} s); per run of ${submitting[0]?.result.submitted ?? 0} weeks: ` +
      `median ${ms(median(submitting.map((r) => r.ms)))}, ` +
      `${median(submitting.map((r) => r.statements))} statements; an idle run: ${ms(runs.at(-1)!.ms)}, ` +
      `${runs.at(-1)!.statements} statements`,
  );
  const later = new Date(Date.now() + 6 * 86_400_000);
  const review = await runAt(later);
  log(
    `weekly job 6 days later: one run approved ${review.result.approved} and submitted ${review.result.submitted} ` +
      `weeks in ${ms(review.ms)}, ${review.statements} statements`,
  );
  await db.destroy();
}

main()
  .then(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  })
  .catch((error) => {
    console.error(error);
    rmSync(dir, { recursive: true, force: true });
    process.exit(1);
  });
