import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { CompiledQuery, Kysely, Migrator, SqliteDialect, SqliteDriver, type DatabaseConnection } from "kysely";
import { config } from "../app/config.server";
import { migrationProvider } from "../migrations";
import type { Database } from "./schema";

/** A better-sqlite3 connection with the settings every connection of the app uses. */
export function openConnection(path: string) {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  // Another process (npm start runs one per core) may hold the write lock: wait for it.
  sqlite.pragma("busy_timeout = 5000");
  // In WAL mode NORMAL survives a crashed process; only an OS crash may drop the last commits.
  sqlite.pragma("synchronous = NORMAL");
  return sqlite;
}

export function openDatabase(path: string) {
  const sqlite = openConnection(path);
  // Reads go through the OS page cache without a copy into SQLite's own: a list page read
  // 20 rows in ~150 µs instead of ~265 µs. Writes still go through the WAL.
  sqlite.pragma(`mmap_size = ${MMAP_BYTES}`);
  const statements = cachedStatements(sqlite);
  return { sqlite, statements, db: new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: statements }) }) };
}

const MMAP_BYTES = 256 * 1024 * 1024;

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
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(source: string): SQLite.Statement {
      const found = cache.get(source);
      // A statement still being iterated (a streamed query) cannot start over: use another.
      if (found && !found.busy) {
        cache.delete(source);
        cache.set(source, found);
        return found;
      }
      const statement = sqlite.prepare(source);
      if (!found) {
        cache.set(source, statement);
        if (cache.size > STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
      }
      return statement;
    },
  };
}

/**
 * Folds the WAL back into the database file and closes the connection, so the file on disk is
 * complete by itself. Safe to call twice (scripts close through Kysely's `db.destroy()`).
 */
export function closeDatabase(connection: SQLite.Database) {
  if (!connection.open) return;
  try {
    connection.pragma("wal_checkpoint(TRUNCATE)");
  } catch {
    // Another process may hold the WAL; closing still leaves every commit durable.
  }
  connection.close();
}

function openProcessDatabase() {
  const opened = openDatabase(config.DATABASE_PATH);
  // 'exit' runs once the event loop is empty: after remix-serve's SIGTERM handler has let the
  // requests in flight finish and the HTTP server close (or after an explicit process.exit).
  // better-sqlite3 would also close the handle at teardown; closing here makes it explicit.
  process.once("exit", () => closeDatabase(opened.sqlite));
  return opened;
}

// One connection per process; remix dev re-imports modules, so it is kept on globalThis
// (except under test, where every test file must get a database of its own).
const globalStore = globalThis as unknown as { __freelaDb?: ReturnType<typeof openDatabase> };
const opened =
  config.NODE_ENV === "test"
    ? openDatabase(config.DATABASE_PATH)
    : (globalStore.__freelaDb ??= openProcessDatabase());

export const db = opened.db;
export const sqlite = opened.sqlite;
/** The statement cache Kysely prepares through (tests count queries here). */
export const statements = opened.statements;

export async function migrateToLatest(database: Kysely<Database> = db) {
  const migrator = new Migrator({ db: database, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return results ?? [];
}
