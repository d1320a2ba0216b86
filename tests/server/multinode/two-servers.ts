// Two app servers (npm start: launcher and two workers each) on one database — PostgreSQL, or one
// SQLite file on one machine — for the suites whose background jobs must do their work once
// however many processes run them.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll } from "vitest";
import { startPostgres } from "../../support/postgres";
import {
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

/**
 * Starts the two servers with `env` added to each one's (the jobs' timers), the first one
 * migrating the database. `rows` reads the shared database directly; `dir` holds the SQLite file
 * and the uploads folder.
 */
export async function twoServers(engine: "postgres" | "sqlite", prefix: string, env: Record<string, string>) {
  requireBuild();
  let shared: Record<string, string> = {};
  let rows: <T>(sql: string) => Promise<T[]>;
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (engine === "postgres") {
    const postgres = await startPostgres();
    databases.push(postgres);
    await postgres.createDatabase("freela");
    shared = { DATABASE_URL: postgres.url("freela"), DATABASE_POOL_SIZE: "5" };
    rows = async <T>(sql: string) => {
      const client = new pg.Client({ connectionString: postgres.url("freela") });
      await client.connect();
      try {
        return (await client.query(sql)).rows as T[];
      } finally {
        await client.end();
      }
    };
  } else {
    rows = async <T>(sql: string) => inspect(join(dir, "freela.db"), (db) => db.prepare(sql).all() as T[]);
  }
  const bases: string[] = [];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const { env: serverOwn, base } = serverEnv(port, i === 0 ? dir : undefined);
    Object.assign(serverOwn, shared, {
      WEB_CONCURRENCY: "2",
      CONTRACT_SCHEDULE_SECONDS: "0",
      ...env,
      ...(engine === "sqlite" ? { DATABASE_PATH: join(dir, "freela.db"), UPLOADS_DIR: join(dir, "uploads") } : {}),
    });
    if (i === 0) migrate(serverOwn);
    running.push(await startServer(serverOwn, base, { cluster: true }));
    bases.push(base);
  }
  const count = async (sql: string) => Number((await rows<{ n: number }>(sql))[0]!.n);
  return { bases, rows, count, dir };
}
