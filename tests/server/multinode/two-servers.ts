// Two app servers on one database, as several machines behind a load balancer run them: each is
// `npm start` (the launcher and its workers) on a port of its own, over a PostgreSQL server of
// their own or one SQLite file on one machine (WAL lets the processes share it, and the uploads
// directory with it). The first one migrates. Everything started is stopped after the file.
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

export type TwoServers = {
  bases: [string, string];
  /** Rows read from the shared database (placeholders: `$1` on PostgreSQL, `?` on SQLite). */
  rows: <T>(sql: string, values?: unknown[]) => Promise<T[]>;
  /** One number from the shared database (`SELECT … AS n`). */
  count: (sql: string) => Promise<number>;
  /** The uploads directory they share on SQLite (each has its own temporary one on PostgreSQL). */
  uploads: string;
  /** The two launchers' processes (to stop one, say). */
  servers: [Server, Server];
};

/**
 * Registers the clean-up in the calling test file and returns the function that starts a pair.
 * `env` is added to both servers' settings (jobs' intervals, the worker count: one by default).
 */
export function twoServersFor(prefix: string) {
  const running: Server[] = [];
  const databases: Postgres[] = [];
  afterAll(async () => {
    for (const server of running) if (server.child.exitCode === null) server.child.kill("SIGKILL");
    for (const postgres of databases) await postgres.destroy();
    removeTempDirs();
  });

  return async function twoServers(
    engine: "postgres" | "sqlite",
    env: Record<string, string> = {},
  ): Promise<TwoServers> {
    requireBuild();
    const dir = mkdtempSync(join(tmpdir(), `freela-${prefix}-`));
    let shared: Record<string, string>;
    let rows: TwoServers["rows"];
    if (engine === "postgres") {
      const postgres = await startPostgres();
      databases.push(postgres);
      await postgres.createDatabase("freela");
      shared = { DATABASE_URL: postgres.url("freela"), DATABASE_POOL_SIZE: "5" };
      rows = async <T>(sql: string, values: unknown[] = []) => {
        const client = new pg.Client({ connectionString: postgres.url("freela") });
        await client.connect();
        try {
          return (await client.query(sql, values)).rows as T[];
        } finally {
          await client.end();
        }
      };
    } else {
      shared = { DATABASE_PATH: join(dir, "freela.db"), UPLOADS_DIR: join(dir, "uploads") };
      rows = async <T>(sql: string, values: unknown[] = []) =>
        inspect(join(dir, "freela.db"), (db) => db.prepare(sql).all(...values) as T[]);
    }
    const count = async (sql: string) => Number((await rows<{ n: number | string }>(sql))[0]!.n);
    const bases: string[] = [];
    const started: Server[] = [];
    for (let i = 0; i < 2; i++) {
      const server = serverEnv(await freePort(), i === 0 ? dir : undefined);
      Object.assign(server.env, shared, {
        WEB_CONCURRENCY: "1",
        CONTRACT_SCHEDULE_SECONDS: "0",
        OUTBOX_SECONDS: "0",
        ...env,
      });
      if (i === 0) migrate(server.env);
      started.push(await startServer(server.env, server.base, { cluster: true }));
      running.push(started.at(-1)!);
      bases.push(server.base);
    }
    return {
      bases: [bases[0]!, bases[1]!],
      rows,
      count,
      uploads: join(dir, "uploads"),
      servers: [started[0]!, started[1]!],
    };
  };
}
