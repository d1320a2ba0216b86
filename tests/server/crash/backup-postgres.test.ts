// npm run backup / restore with DATABASE_URL: pg_dump of a live server's database, refused
// restores (in use, not a Freela dump, damaged), and a restore that brings the rows and the
// stored photos back and serves again.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type Postgres } from "../../support/postgres";
import { PNG_1X1 } from "../../support/fixtures";
import { apiUser, freePort, migrate, runScript, serverEnv, serversPerTest, uploadPhoto } from "./server";

const start = serversPerTest();
let postgres: Postgres;

beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.destroy();
});

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

const emails = async (url: string) =>
  (await query<{ email: string }>(url, "select email from users order by email")).map((r) => r.email);

describe("npm run backup / npm run restore on PostgreSQL", () => {
  it("dumps a live server's database and restores it once the server is stopped", async () => {
    await postgres.createDatabase("copia_viva");
    const url = postgres.url("copia_viva");
    const port = await freePort();
    const { env: baseEnv, base, dir } = serverEnv(port);
    const env = { ...baseEnv, DATABASE_URL: url };
    migrate(env);
    let server = await start(env, base);
    const ana = await apiUser(base, "antes1@example.com");
    await apiUser(base, "antes2@example.com");
    const photo = await uploadPhoto(base, ana.token);

    // Online dump while the server runs; the photos are rows, so they come along.
    const copy = join(dir, "copias", "freela.dump");
    const backup = runScript("scripts/backup.ts", env, [copy]);
    expect(backup.code, backup.output).toBe(0);
    expect(existsSync(copy)).toBe(true);
    expect(existsSync(`${copy}.partial`)).toBe(false);
    // It never overwrites an existing file.
    expect(runScript("scripts/backup.ts", env, [copy]).code).not.toBe(0);

    await apiUser(base, "depois@example.com");
    const newer = await uploadPhoto(base, ana.token);
    expect((await fetch(`${base}${photo}`)).status).toBe(404);

    // Refused while the server holds connections to the database; nothing changes.
    const busy = runScript("scripts/restore.ts", env, [copy]);
    expect(busy.code, busy.output).toBe(2);
    expect(busy.output).toMatch(/in use by \d+ other connection/);
    expect(await emails(url)).toContain("depois@example.com");

    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });

    const restore = runScript("scripts/restore.ts", env, [copy]);
    expect(restore.code, restore.output).toBe(0);
    expect(await emails(url)).toEqual(["antes1@example.com", "antes2@example.com"]);

    // The replaced database was dumped first, with the write made after the backup.
    const kept = readdirSync(join(dir, "copias")).filter((name) => name.startsWith("before-restore-"));
    expect(kept).toHaveLength(1);
    await postgres.createDatabase("conferencia");
    const check = postgres.url("conferencia");
    const keptRestore = runScript("scripts/restore.ts", { ...env, DATABASE_URL: check }, [
      join(dir, "copias", kept[0]!),
    ]);
    expect(keptRestore.code, keptRestore.output).toBe(0);
    expect(await emails(check)).toContain("depois@example.com");

    // The restored database serves: an account from the backup signs in, its photo shows, the
    // later one is gone with the rest; migrations find nothing to do.
    migrate(env);
    server = await start(env, base);
    const login = await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "antes1@example.com", password: "senha-segura-1" }),
    });
    expect(login.status).toBe(200);
    const restoredPhoto = await fetch(`${base}${photo}`);
    expect(restoredPhoto.status).toBe(200);
    expect(Buffer.from(await restoredPhoto.arrayBuffer())).toEqual(PNG_1X1);
    expect((await fetch(`${base}${newer}`)).status).toBe(404);
    // The search's text configuration and the unaccent extension it uses came back too.
    expect(await query(url, "select cfgname from pg_ts_config where cfgname = 'freela'")).toHaveLength(1);
    expect(await query(url, "select extname from pg_extension where extname = 'unaccent'")).toHaveLength(1);
    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it("refuses a damaged file or a dump of another database, leaving the live one alone", async () => {
    await postgres.createDatabase("intacta");
    const url = postgres.url("intacta");
    const { env: baseEnv, dir } = serverEnv(await freePort());
    const env = { ...baseEnv, DATABASE_URL: url, SEED_DEMO: "1" };
    migrate(env);
    const before = await emails(url);
    expect(before.length).toBeGreaterThan(0);

    const garbage = join(dir, "lixo.dump");
    writeFileSync(garbage, Buffer.alloc(8192, 7));
    const bad = runScript("scripts/restore.ts", env, [garbage]);
    expect(bad.code).toBe(1);
    expect(bad.output).toMatch(/pg_restore failed/);

    // A database that is not Freela's: backup will not call its dump a backup, restore refuses it.
    await postgres.createDatabase("outra");
    await query(postgres.url("outra"), "create table notas (texto text)");
    const other = join(dir, "outra.dump");
    const dumped = runScript("scripts/backup.ts", { ...env, DATABASE_URL: postgres.url("outra") }, [other]);
    expect(dumped.code).toBe(1);
    expect(dumped.output).toMatch(/not a backup of a Freela database/);
    expect(existsSync(other)).toBe(false);
    expect(existsSync(`${other}.partial`)).toBe(false);
    const pgDump = spawnSync("pg_dump", ["--format=custom", "--file", other, "--dbname", postgres.url("outra")]);
    expect(pgDump.status).toBe(0);
    const foreign = runScript("scripts/restore.ts", env, [other]);
    expect(foreign.code).toBe(1);
    expect(foreign.output).toMatch(/not a backup of a Freela database/);

    expect(runScript("scripts/restore.ts", env, [join(dir, "nao-existe.dump")]).code).toBe(1);
    expect(await emails(url)).toEqual(before);
    expect(readdirSync(dir).filter((n) => n.includes("restore"))).toEqual([]);
  });

  it("leaves the database as it was when the replay fails halfway", async () => {
    await postgres.createDatabase("meio_caminho");
    const url = postgres.url("meio_caminho");
    const { env: baseEnv, dir } = serverEnv(await freePort());
    const env = { ...baseEnv, DATABASE_URL: url, SEED_DEMO: "1" };
    migrate(env);
    // A schema of the operator's beside the app's: in the dump, and still there at the replay,
    // whose CREATE SCHEMA then fails after the app's schema was already emptied.
    await query(url, "create schema relatorios");
    const copy = join(dir, "freela.dump");
    const backup = runScript("scripts/backup.ts", env, [copy]);
    expect(backup.code, backup.output).toBe(0);
    await query(
      url,
      "insert into users (id, email, password_hash, full_name, account_type, created_at, updated_at) " +
        "select '00000000-0000-4000-8000-0000000000aa', 'zz-depois@example.com', password_hash, 'Depois', " +
        "account_type, created_at, updated_at from users limit 1",
    );
    const before = await emails(url);
    const failed = runScript("scripts/restore.ts", env, [copy]);
    expect(failed.code, failed.output).toBe(1);
    expect(failed.output).toMatch(/psql failed: .*relatorios.*already exists.*left as it was/s);
    // One transaction: the emptied schema came back with the rest, the later row included.
    expect(await emails(url)).toEqual(before);
    expect(before).toContain("zz-depois@example.com");
    expect(readdirSync(dir).filter((n) => n.includes("restore-tmp"))).toEqual([]);
  });
});
