// The two databases a crash test runs its server on: the SQLite file of serverEnv, or a fresh
// database on a throwaway PostgreSQL server (started by the first test that asks for one, and
// stopped when the file ends). Each gives a server environment, a way to read rows as an
// operator's tool would (another connection), and its own check that the data is intact.
import pg from "pg";
import { afterAll } from "vitest";
import { startPostgres, type Postgres } from "../../support/postgres";
import { inspect, serverEnv } from "./server";

export type Engine = {
  name: "SQLite" | "PostgreSQL";
  /** A server's environment on a fresh, empty database (migrate before starting it). */
  env(port: number): Promise<ReturnType<typeof serverEnv>>;
  /** Rows of one read-only query (no parameters), through a connection of its own. */
  rows<T>(env: NodeJS.ProcessEnv, query: string): Promise<T[]>;
  /** The engine's own integrity check: SQLite's integrity_check, amcheck on PostgreSQL's indexes. */
  intact(env: NodeJS.ProcessEnv): Promise<boolean>;
};

const sqlite: Engine = {
  name: "SQLite",
  env: async (port) => serverEnv(port),
  rows: async <T>(env: NodeJS.ProcessEnv, query: string) =>
    inspect(env.DATABASE_PATH!, (db) => db.prepare(query).all() as T[]),
  intact: async (env) => inspect(env.DATABASE_PATH!, (db) => db.pragma("integrity_check", { simple: true }) === "ok"),
};

let server: Promise<Postgres> | undefined;
let databases = 0;
afterAll(async () => {
  await (await server)?.destroy();
});

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const postgres: Engine = {
  name: "PostgreSQL",
  async env(port) {
    server ??= startPostgres();
    const running = await server;
    const name = `crash_${++databases}`;
    await running.createDatabase(name);
    const setup = serverEnv(port);
    setup.env.DATABASE_URL = running.url(name);
    return setup;
  },
  rows: <T>(env: NodeJS.ProcessEnv, query: string) =>
    withClient(env.DATABASE_URL!, async (client) => (await client.query(query)).rows as T[]),
  // Every B-tree index of the app's tables checked against its table (amcheck, with heapallindexed:
  // each row is found through each index).
  intact: (env) =>
    withClient(env.DATABASE_URL!, async (client) => {
      await client.query("create extension if not exists amcheck");
      const { rows } = await client.query<{ index: string }>(
        `select c.oid::regclass::text as index from pg_index i
           join pg_class c on c.oid = i.indexrelid
           join pg_am a on a.oid = c.relam
           join pg_namespace n on n.oid = c.relnamespace
         where a.amname = 'btree' and n.nspname = 'public'`,
      );
      for (const { index } of rows) await client.query("select bt_index_check($1::regclass, true)", [index]);
      return rows.length > 0;
    }),
};

export const ENGINES = [sqlite, postgres];
