// Brings a backup back as the live database:
//   npm run restore -- backups/freela-2025-01-31T03-00-00-000Z.db
// With DATABASE_URL, a pg_dump made by npm run backup goes back into PostgreSQL instead
// (scripts/postgres-backup.ts); --force restores even while other sessions use the database.
// Stop the server first: the restore refuses while another process has the database open.
// The file is checked (integrity_check, a users table) before anything is touched; the current
// database is kept as <database>.before-restore-<timestamp>; the new file is written beside the
// live one and renamed over it in one step, and stale -wal/-shm files are removed so SQLite
// cannot replay the old database's journal onto the restored one. When the backup has its
// photos (<backup>.uploads/, written by npm run backup), they replace UPLOADS_DIR the same way;
// the current folder is kept as <uploads>.before-restore-<timestamp>.
import { copyFileSync, cpSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import SQLite from "better-sqlite3";
import { restorePostgres } from "./postgres-backup";

const live = resolve(process.env.DATABASE_PATH || "data/freela.db");
const uploads = resolve(process.env.UPLOADS_DIR || "data/uploads");
const sourceArg = process.argv.slice(2).find((arg) => arg !== "--force");
const stamp = new Date().toISOString().replace(/[:.]/g, "-");

function fail(message: string, code = 1): never {
  console.error(`restore: ${message}`);
  process.exit(code);
}

function errorText(error: unknown) {
  return error instanceof Error ? error.message : String(error);
}

if (!sourceArg) fail("usage: npm run restore -- <backup file> [--force]");
const source = resolve(sourceArg);
if (!existsSync(source)) fail(`file not found: ${source}`);
if (process.env.DATABASE_URL) {
  await restorePostgres(process.env.DATABASE_URL, source, { force: process.argv.includes("--force") }, fail);
  process.exit(0);
}
if (source === live) fail("the backup is the live database itself");

/** Checks the backup read-only (integrity, a users table) and copies it to `to` with the online backup API. */
async function verifyAndCopy(path: string, to: string) {
  const sidecars = ["-wal", "-shm"].filter((s) => !existsSync(path + s));
  let db: SQLite.Database | undefined;
  try {
    db = new SQLite(path, { readonly: true, fileMustExist: true });
    const check = db.pragma("integrity_check", { simple: true });
    if (check !== "ok") throw new Error(`integrity_check: ${String(check)}`);
    const table = db.prepare("select name from sqlite_master where type = 'table' and name = 'users'").get();
    if (!table) throw new Error("no users table: not a Freela database");
    const users = (db.prepare("select count(*) as n from users").get() as { n: number }).n;
    await db.backup(to);
    return users;
  } finally {
    db?.close();
    // A read-only open of a WAL-mode file may leave empty -wal/-shm beside it; they were not ours.
    for (const s of sidecars) rmSync(path + s, { force: true });
  }
}

mkdirSync(dirname(live), { recursive: true });
const incoming = `${live}.restore-tmp`;
rmSync(incoming, { force: true });
let users = 0;
try {
  users = await verifyAndCopy(source, incoming);
  const copy = new SQLite(incoming);
  try {
    copy.pragma("journal_mode = DELETE");
    const check = copy.pragma("integrity_check", { simple: true });
    if (check !== "ok") throw new Error(`integrity_check of the copy: ${String(check)}`);
  } finally {
    copy.close();
  }
} catch (error) {
  rmSync(incoming, { force: true });
  fail(`${source} cannot be restored, live database untouched: ${errorText(error)}`);
}

if (existsSync(live)) {
  // Leaving WAL mode needs every other connection gone; SQLITE_BUSY means a server has it open.
  // On success the WAL is folded into the file, which is then complete by itself.
  const current = new SQLite(live, { fileMustExist: true, timeout: 0 });
  try {
    current.pragma("journal_mode = DELETE");
  } catch (error) {
    current.close();
    rmSync(incoming, { force: true });
    if ((error as { code?: string }).code === "SQLITE_BUSY") {
      fail(`${live} is in use by another process (is the server running?). Stop it and try again.`, 2);
    }
    fail(`cannot open ${live}: ${errorText(error)}`);
  }
  current.close();
  const kept = `${live}.before-restore-${stamp}`;
  copyFileSync(live, kept);
  console.info(`restore: current database kept as ${kept}`);
}

const sourceUploads = `${source}.uploads`;
if (existsSync(sourceUploads)) {
  const incomingUploads = `${uploads}.restore-tmp`;
  mkdirSync(dirname(uploads), { recursive: true });
  rmSync(incomingUploads, { recursive: true, force: true });
  try {
    cpSync(sourceUploads, incomingUploads, { recursive: true });
  } catch (error) {
    rmSync(incomingUploads, { recursive: true, force: true });
    rmSync(incoming, { force: true });
    fail(`${sourceUploads} cannot be copied, nothing changed: ${errorText(error)}`);
  }
  if (existsSync(uploads)) {
    const keptUploads = `${uploads}.before-restore-${stamp}`;
    renameSync(uploads, keptUploads);
    console.info(`restore: current photos kept in ${keptUploads}`);
  }
  renameSync(incomingUploads, uploads);
  console.info(`restore: ${sourceUploads} -> ${uploads}`);
} else {
  console.info(`restore: the backup has no photos folder (${sourceUploads}); ${uploads} left as it is`);
}

for (const s of ["-wal", "-shm", "-journal"]) rmSync(live + s, { force: true });
renameSync(incoming, live);

console.info(`restore: ${source} -> ${live} (${users} users, integrity ok). Start the server again.`);
