// Backup and restore when the database is PostgreSQL (DATABASE_URL): npm run backup / restore
// call these. Photos and contract files live in the database then (the photos table), so the
// dump carries everything.
//   backup:  pg_dump --format=custom, a consistent snapshot taken while the servers serve,
//            written beside the target and renamed once pg_restore can read its table of contents.
//   restore: refused while other sessions use the database (the servers: exit code 2) unless
//            --force; the current database is dumped first (before-restore-<stamp>.dump beside
//            the backup); then, in ONE transaction, the public schema is emptied and the dump
//            replayed, so a failed restore leaves the database as it was.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import pg from "pg";

type Fail = (message: string, code?: number) => never;

/** Runs a PostgreSQL client program; its output, or the failure with what it said. */
function run(fail: Fail, program: string, args: string[]) {
  const result = spawnSync(program, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.error) fail(`${program} could not run (${result.error.message}): install the PostgreSQL client`);
  if (result.status !== 0) fail(`${program} failed: ${(result.stderr || result.stdout).trim()}`);
  return result.stdout;
}

/** The dump's table of contents, refused unless it is a Freela database (it has the users table's data). */
function contentsOf(fail: Fail, dump: string) {
  const toc = run(fail, "pg_restore", ["--list", dump]);
  if (!/ TABLE DATA public users /.test(toc)) fail(`${dump} is not a backup of a Freela database (no users table)`);
  return toc;
}

const dumpArgs = (url: string, file: string) => ["--format=custom", "--no-owner", "--file", file, "--dbname", url];

export async function backupPostgres(url: string, target: string, fail: Fail) {
  if (existsSync(target)) fail(`refusing to overwrite ${target}`);
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  // A failed run leaves no half file behind, under either name.
  const abandon: Fail = (message, code) => {
    rmSync(partial, { force: true });
    return fail(message, code);
  };
  run(abandon, "pg_dump", dumpArgs(url, partial));
  contentsOf(abandon, partial);
  renameSync(partial, target);
  const kb = Math.ceil(statSync(target).size / 1024);
  console.info(`backup: PostgreSQL -> ${target} (${kb} KB, pg_dump custom format, photos and files included)`);
}

export async function restorePostgres(url: string, source: string, { force }: { force: boolean }, fail: Fail) {
  const toc = contentsOf(fail, source);

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    if (rows[0]!.n > 0 && !force) {
      fail(
        `the database is in use by ${rows[0]!.n} other connection(s) (is the server running?). ` +
          "Stop the servers and try again, or restore anyway with --force.",
        2,
      );
    }
    const { rows: tables } = await client.query(
      "select 1 from pg_tables where schemaname = 'public' and tablename = 'users'",
    );
    if (tables.length > 0) {
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const kept = join(dirname(source), `before-restore-${stamp}.dump`);
      run(fail, "pg_dump", dumpArgs(url, kept));
      console.info(`restore: current database kept as ${kept}`);
    }
  } finally {
    await client.end();
  }

  // The dump replayed as SQL after emptying the schema, all in one transaction (psql -1). The
  // public schema's own entry is left out: it is recreated here, and replaying it would collide.
  const work = `${source}.restore-tmp`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work);
  const abandon: Fail = (message, code) => {
    rmSync(work, { recursive: true, force: true });
    return fail(`${message}; the database was left as it was`, code);
  };
  const list = join(work, "contents.list");
  writeFileSync(
    list,
    toc
      .split("\n")
      .filter((line) => !/ SCHEMA - public /.test(line))
      .join("\n"),
  );
  const script = join(work, "restore.sql");
  run(abandon, "pg_restore", ["--no-owner", "--no-privileges", "--use-list", list, "--file", script, source]);
  const empty = join(work, "empty.sql");
  writeFileSync(empty, "DROP SCHEMA IF EXISTS public CASCADE;\nCREATE SCHEMA public;\n");
  run(abandon, "psql", [
    "-X",
    "-q",
    "-v",
    "ON_ERROR_STOP=1",
    "--single-transaction",
    "-d",
    url,
    "-f",
    empty,
    "-f",
    script,
  ]);
  rmSync(work, { recursive: true, force: true });
  const users = await countUsers(url);
  console.info(`restore: ${source} -> PostgreSQL (${users} users). Start the servers again.`);
}

async function countUsers(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>("select count(*)::int as n from users")).rows[0]!.n;
  } finally {
    await client.end();
  }
}

/** Where `npm run backup` writes by default with PostgreSQL. */
export const defaultDumpPath = (stamp: string) => resolve(join("backups", `freela-${stamp}.dump`));
