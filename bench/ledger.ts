// npm run bench:ledger: the cost of a user's balances and /financeiro's first page for a
// freelancer with 10 000 ledger entries (and 200 contracts, half of them funded): the number of
// statements sent to the database (fixed, whatever the entries) and the time, median of 50 runs.
// SQLite in a temporary file; PostgreSQL too when DATABASE_URL names an empty database.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

const dir = mkdtempSync(join(tmpdir(), "freela-bench-ledger-"));
process.env.DATABASE_PATH ??= join(dir, "freela.db");
process.env.NODE_ENV = "test";
process.env.PAYMENTS = "escrow";
process.env.SEED_DEMO = "0";

const { db, migrateToLatest, statements, engine } = await import("../db");
const pg = (await import("pg")).default;
const { createApplication, createOpportunity, createUser } = await import("../db/factories");
const { balancesOf } = await import("../app/services/payments/ledger.server");
const { getStatement } = await import("../app/services/payments/finance.server");
const { fundMilestone } = await import("../app/services/payments/escrow.server");

const ENTRIES = 10_000;
const CONTRACTS = 200;
const RUNS = 50;

await migrateToLatest();
const merchant = await createUser(db, { account_type: "merchant" });
const freelancer = await createUser(db, { account_type: "freelancer" });
for (let i = 0; i < CONTRACTS; i++) {
  // One application per freelancer and opportunity: an opportunity per contract.
  const opportunity = await createOpportunity(db, { merchant_id: merchant.id });
  const app = await createApplication(db, {
    opportunity,
    freelancer_id: freelancer.id,
    status: "accepted",
    offers: [{ author: "freelancer", price_cents: 10_000 + i, delivery_days: 10 }],
  });
  if (i % 2 === 0) {
    const contract = await db.selectFrom("contracts").selectAll().where("id", "=", app.id).executeTakeFirstOrThrow();
    const milestone = await db
      .selectFrom("milestones")
      .selectAll()
      .where("contract_id", "=", app.id)
      .executeTakeFirstOrThrow();
    await fundMilestone(db, contract, milestone, `bench-${i}`, new Date().toISOString());
  }
}
// The freelancer's own entries: releases into the available balance and payouts out of it.
const at = new Date().toISOString();
let made = 0;
for (let batch = 0; made < ENTRIES; batch++) {
  const txs = [];
  const entries = [];
  for (let i = 0; i < 250 && made < ENTRIES; i++, made += 4) {
    const n = batch * 250 + i;
    const [release, requested, paid] = [`r${n}`, `q${n}`, `p${n}`];
    txs.push(
      { id: release, kind: "release" as const, freelancer_id: freelancer.id, created_at: at },
      { id: requested, kind: "payout_requested" as const, freelancer_id: freelancer.id, created_at: at },
      { id: paid, kind: "payout_paid" as const, freelancer_id: freelancer.id, created_at: at },
    );
    const e = (id: string, tx: string, account: string, user: string | null, amount: number) => ({
      id,
      transaction_id: tx,
      account,
      user_id: user,
      amount_cents: amount,
      created_at: at,
    });
    entries.push(
      e(`${release}a`, release, `available:${freelancer.id}`, freelancer.id, 900),
      e(`${release}b`, release, "fees", null, 100),
      e(`${release}c`, release, `escrow:gone${n}`, merchant.id, -1000),
      e(`${requested}a`, requested, `available:${freelancer.id}`, freelancer.id, -900),
      e(`${requested}b`, requested, `payout:${n}`, freelancer.id, 900),
      e(`${paid}a`, paid, `payout:${n}`, freelancer.id, -900),
      e(`${paid}b`, paid, `external:${freelancer.id}`, freelancer.id, 900),
    );
  }
  await db.insertInto("ledger_transactions").values(txs).execute();
  await db.insertInto("ledger_entries").values(entries).execute();
}
const mine = await db
  .selectFrom("ledger_entries")
  .select((eb) => eb.fn.countAll<number>().as("n"))
  .where("user_id", "=", freelancer.id)
  .executeTakeFirstOrThrow();

async function measure(name: string, run: () => Promise<unknown>) {
  await run();
  let count = 0;
  const original = statements ? statements.prepare : pg.Client.prototype.query;
  if (statements) {
    statements.prepare = function (this: typeof statements, source: string) {
      count++;
      return original.call(this, source);
    } as typeof statements.prepare;
  } else {
    pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
      count++;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof pg.Client.prototype.query;
  }
  await run();
  if (statements) statements.prepare = original as typeof statements.prepare;
  else pg.Client.prototype.query = original as typeof pg.Client.prototype.query;
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    name,
    statements: count,
    median_ms: times[RUNS >> 1].toFixed(2),
    p90_ms: times[Math.floor(RUNS * 0.9)].toFixed(2),
  };
}

const balances = await balancesOf(freelancer);
const results = [
  await measure("balancesOf (saldos)", () => balancesOf(freelancer)),
  await measure("getStatement, 1st page (/financeiro)", () => getStatement(freelancer, {})),
];
console.info(`engine: ${engine}; freelancer's own ledger entries: ${Number(mine.n)}; contracts: ${CONTRACTS}`);
console.info(`balances: ${JSON.stringify(balances)}`);
console.table(results);
await db.destroy();
rmSync(dir, { recursive: true, force: true });
