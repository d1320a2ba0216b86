import { mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type KyselyConfig,
  type Transaction,
} from "kysely";
import { LRUCache } from "lru-cache";
import pg from "pg";
import { config } from "../app/config.server";
import { logger } from "../app/services/platform/log.server";
import { queryDuration } from "../app/services/platform/query-metrics.server";
import { migrationProvider } from "../migrations";
import { engine, isRetryable } from "./dialect";
import { PreparingClient } from "./prepared";
import type { Database } from "./schema";

export { engine } from "./dialect";

/**
 * A better-sqlite3 connection with the settings every connection of the app uses. `image`: an
 * in-memory database that starts as a copy of that database file's contents (the tests' migrated
 * template).
 */
export function openConnection(path: string, image?: string) {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path === ":memory:" && image ? readFileSync(image) : path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  // Another process (npm start runs one per core) may hold the write lock: wait for it.
  sqlite.pragma("busy_timeout = 5000");
  // In WAL mode NORMAL survives a crashed process; only an OS crash may drop the last commits.
  sqlite.pragma("synchronous = NORMAL");
  return sqlite;
}

export function openDatabase(path: string, image?: string) {
  const sqlite = openConnection(path, image);
  // Reads go through the OS page cache without a copy into SQLite's own: a list page read
  // 20 rows in ~150 µs instead of ~265 µs. Writes still go through the WAL.
  sqlite.pragma(`mmap_size = ${MMAP_BYTES}`);
  const statements = cachedStatements(sqlite);
  return {
    sqlite,
    statements,
    db: new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: statements }), log: timed("sqlite") }),
  };
}

const MMAP_BYTES = 256 * 1024 * 1024;

/** Each statement's duration, for /metrics (failed ones too), through the engine's own series (no label lookup per statement). */
function timed(engine: "sqlite" | "postgres"): KyselyConfig["log"] {
  const series = queryDuration.labels({ engine });
  return (event) => series.observe(event.queryDurationMillis / 1000);
}

/**
 * Kysely's SQLite dialect, except that transactions begin with BEGIN IMMEDIATE: they take the
 * write lock at once (waiting up to busy_timeout for another process to let go of it) rather
 * than at their first write. With several server processes on one file, a deferred transaction
 * that had read first would fail with SQLITE_BUSY when another process wrote in between; this
 * way racing transactions run one after the other, and the loser sees the winner's change
 * (a 409, as in one process). Every transaction of the app writes, so none waits for nothing.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  readonly #options: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(options: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(options);
    this.#options = options;
  }
  createDriver() {
    return new ImmediateSqliteDriver(this.#options);
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

const STATEMENT_CACHE = 256;

/**
 * What Kysely runs its queries through: better-sqlite3 with its prepared statements kept by SQL
 * text (parameters are bound apart), the least recently used dropped past STATEMENT_CACHE.
 * Kysely prepares every query it runs, and parsing and planning cost more than running the
 * small indexed queries a request makes. SQLite prepares a kept statement again by itself
 * if the schema changes under it.
 */
export function cachedStatements(sqlite: SQLite.Database) {
  const cache = new LRUCache<string, SQLite.Statement>({ max: STATEMENT_CACHE });
  return {
    close: () => sqlite.close(),
    prepare(source: string): SQLite.Statement {
      const found = cache.get(source);
      // A statement still being iterated (a streamed query) cannot start over: use another.
      if (found && !found.busy) return found;
      const statement = sqlite.prepare(source);
      if (!found) cache.set(source, statement);
      return statement;
    },
  };
}

/**
 * Folds the WAL back into the database file and closes the connection, so the file on disk is
 * complete by itself. Safe to call twice (scripts close through Kysely's `db.destroy()`).
 */
export function closeDatabase(connection: SQLite.Database | undefined) {
  if (!connection?.open) return;
  try {
    connection.pragma("wal_checkpoint(TRUNCATE)");
  } catch {
    // Another process may hold the WAL; closing still leaves every commit durable.
  }
  connection.close();
}

// PostgreSQL sends 64-bit integers (count(*), money columns, which are bigint) and numerics
// (sum() of a bigint) as strings, since they may not fit a JavaScript number. Every such value of
// this app (counts, centavos) is an integer far below 2⁵³ (R$ 90 trilhões): read as a number, and
// refused loudly rather than rounded if one ever is not.
pg.types.setTypeParser(pg.types.builtins.INT8, exactNumber);
pg.types.setTypeParser(pg.types.builtins.NUMERIC, exactNumber);

/** A number from PostgreSQL's text, only when the number holds it exactly (else it throws). */
export function exactNumber(text: string): number {
  const value = Number(text);
  const integral = /^-?\d+$/.test(text);
  if (!Number.isFinite(value) || (integral && !Number.isSafeInteger(value))) {
    throw new RangeError(`${text} does not fit a JavaScript number exactly`);
  }
  return value;
}

/** A pool of DATABASE_POOL_SIZE connections to PostgreSQL, shared by the whole process. */
function openPostgres(url: string) {
  // allowExitOnIdle: idle connections do not keep a stopping server alive.
  const pool = new pg.Pool({
    connectionString: url,
    max: config.DATABASE_POOL_SIZE,
    allowExitOnIdle: true,
    // While PostgreSQL is unreachable a request fails after 5 s (a 503) instead of hanging.
    connectionTimeoutMillis: 5_000,
    // Frequent statements are kept parsed per connection, their plans still made per run.
    ...(config.DATABASE_PREPARED_STATEMENTS
      ? { Client: PreparingClient, options: "-c plan_cache_mode=force_custom_plan" }
      : {}),
  });
  // A connection the server drops while idle (a PostgreSQL restart) reports here; the pool has
  // already discarded it and opens a new one on the next query. Unhandled, it would end the process.
  pool.on("error", (error) => logger.error(`[db] PostgreSQL connection lost: ${error.message}`));
  return { pool, db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: timed("postgres") }) };
}

type Opened = {
  db: Kysely<Database>;
  pool?: pg.Pool;
  /** SQLite only: the connection, and the statement cache Kysely prepares through. */
  sqlite?: SQLite.Database;
  statements?: ReturnType<typeof cachedStatements>;
};

function openProcessDatabase(): Opened {
  if (config.DATABASE_URL) return openPostgres(config.DATABASE_URL);
  const opened = openDatabase(config.DATABASE_PATH);
  // 'exit' runs once the event loop is empty: after remix-serve's SIGTERM handler has let the
  // requests in flight finish and the HTTP server close (or after an explicit process.exit).
  // better-sqlite3 would also close the handle at teardown; closing here makes it explicit.
  process.once("exit", () => closeDatabase(opened.sqlite));
  return opened;
}

// One connection (or pool) per process; remix dev re-imports modules, so it is kept on
// globalThis (except under test, where every test file must get a database of its own: in
// memory, a copy of the run's migrated template when tests/support/setup.ts names one).
const globalStore = globalThis as unknown as { __freelaDb?: Opened };
const opened: Opened =
  config.NODE_ENV === "test"
    ? config.DATABASE_URL
      ? openPostgres(config.DATABASE_URL)
      : openDatabase(config.DATABASE_PATH, process.env.TEST_SQLITE_TEMPLATE)
    : (globalStore.__freelaDb ??= openProcessDatabase());

export const db = opened.db;
/** PostgreSQL only (undefined on SQLite): the pool behind `db`, shared with the rate limiter. */
export const postgresPool = opened.pool;
/** SQLite only (undefined on PostgreSQL): the connection. */
export const sqlite = opened.sqlite;
/** SQLite only: the statement cache Kysely prepares through (tests count queries here). */
export const statements = opened.statements;

const TRANSACTION_ATTEMPTS = 5;

type CommitHooks = { before: (() => Promise<void>)[]; after: (() => void)[] };
const commitHooks = new WeakMap<object, CommitHooks>();

/**
 * Runs `work` at the end of the transaction `trx` (one of `transaction()`'s), after the rest of
 * it and before its commit: a write taken last holds its locks for the least time. Given `db`
 * itself, or a transaction opened elsewhere, it runs at once.
 */
export async function beforeCommit(trx: Kysely<Database>, work: () => Promise<void>) {
  const hooks = commitHooks.get(trx);
  if (hooks) hooks.before.push(work);
  else await work();
}

/**
 * Runs `hook` once the transaction `trx` (one of `transaction()`'s) has committed; never if it
 * rolls back. Given `db` itself, or a transaction opened elsewhere, it runs on the next turn of
 * the event loop. A hook must not throw.
 */
export function afterCommit(trx: Kysely<Database>, hook: () => void) {
  const hooks = commitHooks.get(trx);
  if (hooks) hooks.after.push(hook);
  else setImmediate(hook);
}

/**
 * Runs `work` in a transaction, again from the start when PostgreSQL ends it with a deadlock or
 * a serialization failure (up to TRANSACTION_ATTEMPTS times, after a short random pause). The
 * work must therefore touch nothing but the database. The loser of a race still loses: on the
 * next attempt its WHERE finds the winner's change and it answers 409, as on SQLite (whose
 * BEGIN IMMEDIATE makes racing transactions wait their turn instead).
 */
export async function transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const hooks: CommitHooks = { before: [], after: [] };
    try {
      const result = await db.transaction().execute(async (trx) => {
        commitHooks.set(trx, hooks);
        const result = await work(trx);
        for (const hook of hooks.before) await hook();
        return result;
      });
      for (const hook of hooks.after) hook();
      return result;
    } catch (error) {
      if (attempt >= TRANSACTION_ATTEMPTS || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

const migratorOf = (database: Kysely<Database>) =>
  new Migrator({ db: database, provider: migrationProvider(engine), allowUnorderedMigrations: true });

/** The migrations of this build not yet applied to the database (the readiness check). */
export async function pendingMigrations(database: Kysely<Database> = db): Promise<string[]> {
  const migrations = await migratorOf(database).getMigrations();
  return migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

export async function migrateToLatest(database: Kysely<Database> = db) {
  // On PostgreSQL the migrator holds an advisory lock, so servers starting together apply
  // each migration once; SQLite's write lock does the same for processes on one file.
  // Features are built side by side with migration numbers reserved in advance, so one may land
  // after a higher-numbered one has run on an existing database: it then runs too, instead of
  // being refused. Each migration touches only its own tables and columns.
  const { error, results } = await migratorOf(database).migrateToLatest();
  if (error) throw error;
  return results ?? [];
}
