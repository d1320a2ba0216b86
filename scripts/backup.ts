// Writes a consistent copy of the live database, safe to run while the server is serving:
//   npm run backup                  -> backups/freela-<UTC timestamp>.db
//   npm run backup -- path/to/copy.db
// SQLite's online backup API copies the pages under the database's own locks, so the copy holds
// exactly the transactions committed when it finished, never half of one.
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import SQLite from "better-sqlite3";

const source = resolve(process.env.DATABASE_PATH || "data/freela.db");
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const target = resolve(process.argv[2] ?? join("backups", `freela-${stamp}.db`));

function fail(message: string): never {
  console.error(`backup: ${message}`);
  process.exit(1);
}

if (!existsSync(source)) fail(`database not found: ${source}`);
if (target === source) fail("the copy cannot be the live database itself");
if (existsSync(target)) fail(`refusing to overwrite ${target}`);
mkdirSync(dirname(target), { recursive: true });

// Written beside the target and renamed at the end, so a failed run never leaves a half file
// under the final name.
const partial = `${target}.partial`;
rmSync(partial, { force: true });

const live = new SQLite(source, { fileMustExist: true, timeout: 5000 });
try {
  await live.backup(partial);
} catch (error) {
  rmSync(partial, { force: true });
  fail(`copy failed: ${error instanceof Error ? error.message : String(error)}`);
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
  rmSync(partial, { force: true });
  fail(`the copy did not verify: ${error instanceof Error ? error.message : String(error)}`);
}
copy.close();
renameSync(partial, target);

const kb = Math.ceil(statSync(target).size / 1024);
console.info(`backup: ${source} -> ${target} (${kb} KB, ${users} users, integrity ok)`);
