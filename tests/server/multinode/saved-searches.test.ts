// Saved searches' digests on two servers at once: two app servers (npm start: launcher and two
// workers each, so four digest jobs, each running every second) share one database —
// PostgreSQL, and one SQLite file on one machine. Every new matching opportunity reaches each
// search's e-mails exactly once: a job that lost the race on the watermark queues nothing.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { validOpportunity } from "../../support/fixtures";
import { startPostgres } from "../../support/postgres";
import {
  apiUser,
  fresh,
  freePort,
  inspect,
  migrate,
  removeTempDirs,
  requireBuild,
  serverEnv,
  startServer,
  type Server,
} from "../crash/server";

type Postgres = Awaited<ReturnType<typeof startPostgres>>;
type Row = { user_id: string; payload: string };

const running: Server[] = [];
const databases: Postgres[] = [];
afterAll(async () => {
  for (const server of running) if (server.child.exitCode === null) server.child.kill("SIGKILL");
  for (const postgres of databases) await postgres.destroy();
  removeTempDirs();
});

/** Two servers on one database, each process running the digest job every second. */
async function twoServers(engine: "postgres" | "sqlite") {
  requireBuild();
  let shared: Record<string, string> = {};
  let rows: (sql: string) => Promise<Row[]>;
  const dir = mkdtempSync(join(tmpdir(), "freela-digests-"));
  if (engine === "postgres") {
    const postgres = await startPostgres();
    databases.push(postgres);
    await postgres.createDatabase("freela");
    shared = { DATABASE_URL: postgres.url("freela"), DATABASE_POOL_SIZE: "5" };
    rows = async (sql) => {
      const client = new pg.Client({ connectionString: postgres.url("freela") });
      await client.connect();
      try {
        return (await client.query(sql)).rows as Row[];
      } finally {
        await client.end();
      }
    };
  } else {
    rows = async (sql) => inspect(join(dir, "freela.db"), (db) => db.prepare(sql).all() as Row[]);
  }
  const bases: string[] = [];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const { env, base } = serverEnv(port, i === 0 ? dir : undefined);
    Object.assign(env, shared, {
      WEB_CONCURRENCY: "2",
      CONTRACT_SCHEDULE_SECONDS: "0",
      // The e-mails stay in the outbox, where they are counted.
      OUTBOX_SECONDS: "0",
      SAVED_SEARCH_SECONDS: "1",
      ...(engine === "sqlite" ? { DATABASE_PATH: join(dir, "freela.db"), UPLOADS_DIR: join(dir, "uploads") } : {}),
    });
    if (i === 0) migrate(env);
    running.push(await startServer(env, base, { cluster: true }));
    bases.push(base);
  }
  return { bases, rows };
}

describe.each(["postgres", "sqlite"] as const)("saved search digests on two servers (%s)", (engine) => {
  it("queue each new match once per search, whichever job runs it", async () => {
    const { bases, rows } = await twoServers(engine);
    const users: Awaited<ReturnType<typeof apiUser>>[] = [];
    for (let i = 0; i < 6; i++) users.push(await apiUser(bases[i % 2]!, `alerta${i}.${engine}@example.com`));
    for (const [i, u] of users.entries()) {
      const saved = await fresh(bases[i % 2]!, "POST", "/api/saved-searches", {
        token: u.token,
        body: { name: `Design ${i}`, frequency: "immediate", filters: { category: "design" } },
      });
      expect(saved.status).toBe(201);
    }
    const merchant = await apiUser(bases[0]!, `loja.${engine}@example.com`, "merchant");
    const published = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        fresh(bases[i % 2]!, "POST", "/api/opportunities", {
          token: merchant.token,
          body: { ...validOpportunity, title: `Identidade visual ${i}`, category: i === 3 ? "video" : "design" },
        }),
      ),
    );
    expect(published.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const design = published.slice(0, 3).map((r) => (r.json.data as { uuid: string }).uuid);

    const digests = () => rows("SELECT user_id, payload FROM outbox WHERE kind = 'saved_search_digest'");
    // Every search has all three design opportunities queued...
    const listed = async () => {
      const all = await digests();
      return users.filter(
        (u) => all.filter((r) => r.user_id === u.id).flatMap((r) => JSON.parse(r.payload).ids).length >= 3,
      ).length;
    };
    await expect.poll(listed, { timeout: 60_000, interval: 500 }).toBe(6);
    // ...and after a few more runs of all four jobs, still once each.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const ids = await rows(
      engine === "postgres"
        ? `SELECT id::text AS user_id, uuid AS payload FROM opportunities`
        : `SELECT CAST(id AS TEXT) AS user_id, uuid AS payload FROM opportunities`,
    );
    const uuidOf = new Map(ids.map((r) => [Number(r.user_id), r.payload]));
    const all = await digests();
    for (const u of users) {
      const mine = all.filter((r) => r.user_id === u.id).flatMap((r) => JSON.parse(r.payload).ids as number[]);
      expect(mine.map((id) => uuidOf.get(Number(id))).sort()).toEqual([...design].sort());
    }
  }, 180_000);
});
