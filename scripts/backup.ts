// Writes a consistent copy of the live database, safe to run while the server is serving:
//   npm run backup                  -> backups/freela-<UTC timestamp>.db (+ .uploads/)
//   npm run backup -- path/to/copy.db
// With DATABASE_URL, a pg_dump of the PostgreSQL database instead (scripts/postgres-backup.ts):
//   backups/freela-<UTC timestamp>.dump, or the path given.
// SQLite's online backup API copies the pages under the database's own locks, so the copy holds
// exactly the transactions committed when it finished, never half of one. The profile photos
// (UPLOADS_DIR) go into <copy>.uploads/, copied before the database and topped up after it:
// a photo is written before the row naming it and removed only after no row names it, so
// every photo the copied rows name is in one of the two passes (unless it was both added and
// replaced while the backup ran). Stored photos never change under their name.
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import SQLite from "better-sqlite3";
import { backupPostgres, defaultDumpPath } from "./postgres-backup";

const source = resolve(process.env.DATABASE_PATH || "data/freela.db");
const uploads = resolve(process.env.UPLOADS_DIR || "data/uploads");
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const target = resolve(process.argv[2] ?? join("backups", `freela-${stamp}.db`));

function fail(message: string): never {
  console.error(`backup: ${message}`);
  process.exit(1);
}

if (process.env.DATABASE_URL) {
  const target = process.argv[2] ? resolve(process.argv[2]) : defaultDumpPath(stamp);
  await backupPostgres(process.env.DATABASE_URL, target, fail);
  process.exit(0);
}
if (!existsSync(source)) fail(`database not found: ${source}`);
if (target === source) fail("the copy cannot be the live database itself");
const uploadsTarget = `${target}.uploads`;
if (existsSync(target) || existsSync(uploadsTarget)) fail(`refusing to overwrite ${target}`);
mkdirSync(dirname(target), { recursive: true });

// Written beside the target and renamed at the end, so a failed run never leaves a half file
// under the final name.
const partial = `${target}.partial`;
rmSync(partial, { force: true });

const partialUploads = `${uploadsTarget}.partial`;
rmSync(partialUploads, { recursive: true, force: true });

/** Removes what this run wrote so far and stops. */
function abandon(message: string, error: unknown): never {
  rmSync(partial, { force: true });
  rmSync(partialUploads, { recursive: true, force: true });
  fail(`${message}: ${error instanceof Error ? error.message : String(error)}`);
}

/** Copies the uploads folder into the partial copy, adding the files not there yet. */
function copyUploads() {
  try {
    cpSync(uploads, partialUploads, { recursive: true, force: false });
  } catch (error) {
    abandon(`copying ${uploads} failed`, error);
  }
}
const withUploads = existsSync(uploads);
if (withUploads) copyUploads();

const live = new SQLite(source, { fileMustExist: true, timeout: 5000 });
try {
  await live.backup(partial);
} catch (error) {
  abandon("copy failed", error);
} finally {
  live.close();
}

const copy = new SQLite(partial);
let users = 0;
try {
  // A single self-contained file: no -wal beside it to forget when moving the copy around.
  copy.pragma("journal_mode = DELETE");
  const check = copy.pragma("integrity_check", { simple: true });
  if (check !== "ok") throw new Error(`integrity_check: ${String(check)}`);
  users = (copy.prepare("select count(*) as n from users").get() as { n: number }).n;
} catch (error) {
  copy.close();
  abandon("the copy did not verify", error);
}
copy.close();

let photos = 0;
if (withUploads) {
  copyUploads();
  photos = readdirSync(partialUploads).length;
  renameSync(partialUploads, uploadsTarget);
}
renameSync(partial, target);

const kb = Math.ceil(statSync(target).size / 1024);
console.info(`backup: ${source} -> ${target} (${kb} KB, ${users} users, integrity ok)`);
console.info(
  existsSync(uploadsTarget)
    ? `backup: ${uploads} -> ${uploadsTarget} (${photos} files)`
    : `backup: no uploads folder at ${uploads}; no photos copied`,
);
