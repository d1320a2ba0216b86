// Copies of users' data built on two servers at once: two app servers (npm start: launcher and
// two workers each, so four export jobs) share one database — PostgreSQL, and one SQLite file
// on one machine — and each job claims waiting copies every second. Every copy asked for is
// built once: one ZIP in the file store and one "ready" e-mail per copy, none left behind by a
// job that lost the claim, and each downloads through either server.
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
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

const running: Server[] = [];
const databases: Postgres[] = [];
afterAll(async () => {
  for (const server of running) if (server.child.exitCode === null) server.child.kill("SIGKILL");
  for (const postgres of databases) await postgres.destroy();
  removeTempDirs();
});

/** Two servers on one database, each running the export job every second. */
async function twoServers(engine: "postgres" | "sqlite") {
  requireBuild();
  let shared: Record<string, string> = {};
  let count: (sql: string) => Promise<number>;
  const dir = mkdtempSync(join(tmpdir(), "freela-exports-"));
  if (engine === "postgres") {
    const postgres = await startPostgres();
    databases.push(postgres);
    await postgres.createDatabase("freela");
    shared = { DATABASE_URL: postgres.url("freela"), DATABASE_POOL_SIZE: "5" };
    count = async (sql) => {
      const client = new pg.Client({ connectionString: postgres.url("freela") });
      await client.connect();
      try {
        return Number((await client.query(sql)).rows[0].n);
      } finally {
        await client.end();
      }
    };
  } else {
    count = async (sql) => inspect(join(dir, "freela.db"), (db) => Number((db.prepare(sql).get() as { n: number }).n));
  }
  const bases: string[] = [];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const { env, base } = serverEnv(port, i === 0 ? dir : undefined);
    Object.assign(env, shared, {
      WEB_CONCURRENCY: "2",
      CONTRACT_SCHEDULE_SECONDS: "0",
      OUTBOX_SECONDS: "1",
      ...(engine === "sqlite" ? { DATABASE_PATH: join(dir, "freela.db"), UPLOADS_DIR: join(dir, "uploads") } : {}),
    });
    if (i === 0) migrate(env);
    running.push(await startServer(env, base, { cluster: true }));
    bases.push(base);
  }
  return { bases, count, uploads: join(dir, "uploads") };
}

describe.each(["postgres", "sqlite"] as const)("data exports on two servers (%s)", (engine) => {
  it("builds every copy once, whichever job claims it, and serves it from either server", async () => {
    const { bases, count, uploads } = await twoServers(engine);
    const users: Awaited<ReturnType<typeof apiUser>>[] = [];
    for (let i = 0; i < 6; i++) users.push(await apiUser(bases[i % 2], `copia${i}.${engine}@example.com`));
    // Asked through both servers at once (and twice each: the second answers the pending one).
    const asked = await Promise.all(
      users.flatMap((u, i) => [
        fresh(bases[i % 2], "POST", "/api/account/export", { token: u.token }),
        fresh(bases[(i + 1) % 2], "POST", "/api/account/export", { token: u.token }),
      ]),
    );
    expect(asked.map((r) => r.status)).toEqual(Array(12).fill(202));
    expect(asked.filter((r) => r.json.created === true)).toHaveLength(6);

    const ready = async () => {
      const states = await Promise.all(
        users.map((u, i) => fresh(bases[(i + 1) % 2], "GET", "/api/account/export", { token: u.token })),
      );
      return states.filter((s) => (s.json.export as { status: string } | null)?.status === "ready").length;
    };
    await expect.poll(ready, { timeout: 60_000, interval: 500 }).toBe(6);

    expect(await count("SELECT count(*) AS n FROM data_exports WHERE status = 'ready'")).toBe(6);
    expect(await count("SELECT count(*) AS n FROM outbox WHERE kind = 'data_export_ready'")).toBe(6);
    // One ZIP per copy in the file store: a job that lost its claim left nothing behind.
    const zips =
      engine === "postgres"
        ? await count("SELECT count(*) AS n FROM photos WHERE name LIKE 'x\\_%'")
        : readdirSync(uploads).filter((n) => n.startsWith("x_")).length;
    expect(zips).toBe(6);

    for (const u of users) {
      for (const base of bases) {
        const res = await fetch(`${base}/api/account/export/download`, {
          headers: { Authorization: `Bearer ${u.token}` },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("application/zip");
        expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
      }
    }
  }, 180_000);
});
