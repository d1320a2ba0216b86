import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, SqliteDialect } from "kysely";
import { config } from "../app/config.server";
import { migrationProvider } from "../migrations";
import type { Database } from "./schema";

export function openDatabase(path: string) {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  // In WAL mode NORMAL survives a crashed process; only an OS crash may drop the last commits.
  sqlite.pragma("synchronous = NORMAL");
  return { sqlite, db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }) };
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

export async function migrateToLatest(database: Kysely<Database> = db) {
  const migrator = new Migrator({ db: database, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return results ?? [];
}
