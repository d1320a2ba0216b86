import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { PNG_1X1 } from "../../support/fixtures";
import { apiUser, freePort, inspect, migrate, runScript, serverEnv, serversPerTest, uploadPhoto } from "./server";

const start = serversPerTest();

const emails = (dbPath: string) =>
  inspect(dbPath, (db) =>
    (db.prepare("select email from users order by email").all() as { email: string }[]).map((r) => r.email),
  );

describe("npm run backup / npm run restore", () => {
  it("backs up a live server's database and restores it once the server is stopped", async () => {
    const port = await freePort();
    const { env, base, dbPath, dir } = serverEnv(port);
    migrate(env);
    let server = await start(env, base);
    const ana = await apiUser(base, "antes1@example.com");
    await apiUser(base, "antes2@example.com");
    const photo = await uploadPhoto(base, ana.token);

    // Online backup while the server runs.
    const copy = join(dir, "copias", "freela-copia.db");
    const backup = runScript("scripts/backup.ts", env, [copy]);
    expect(backup.code, backup.output).toBe(0);
    expect(existsSync(copy)).toBe(true);
    expect(existsSync(`${copy}-wal`)).toBe(false);
    expect(inspect(copy, (db) => db.pragma("integrity_check", { simple: true }))).toBe("ok");
    expect(emails(copy)).toEqual(["antes1@example.com", "antes2@example.com"]);
    // The photos come along, beside the copy.
    expect(readdirSync(`${copy}.uploads`)).toEqual([photo.split("/").pop()]);
    // It never overwrites an existing file.
    expect(runScript("scripts/backup.ts", env, [copy]).code).not.toBe(0);

    await apiUser(base, "depois@example.com");
    // A new photo replaces the old file on disk.
    const newer = await uploadPhoto(base, ana.token);
    expect((await fetch(`${base}${photo}`)).status).toBe(404);

    // Refused while the server holds the database; nothing changes.
    const busy = runScript("scripts/restore.ts", env, [copy]);
    expect(busy.code).toBe(2);
    expect(busy.output).toMatch(/in use by another process/);
    expect(emails(dbPath)).toContain("depois@example.com");

    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });

    // A stale journal beside the live file must not be replayed onto the restored one.
    writeFileSync(`${dbPath}-wal`, "lixo de um journal antigo");
    const restore = runScript("scripts/restore.ts", env, [copy]);
    expect(restore.code, restore.output).toBe(0);
    expect(existsSync(`${dbPath}-wal`)).toBe(false);
    expect(existsSync(`${dbPath}-shm`)).toBe(false);
    expect(emails(dbPath)).toEqual(["antes1@example.com", "antes2@example.com"]);
    expect(inspect(dbPath, (db) => db.pragma("integrity_check", { simple: true }))).toBe("ok");

    // The replaced database was kept, with the write made after the backup.
    const kept = readdirSync(dir).filter((name) => name.startsWith("freela.db.before-restore-"));
    expect(kept).toHaveLength(1);
    expect(emails(join(dir, kept[0]))).toContain("depois@example.com");

    // The photos folder was replaced too; the one it replaced was kept.
    const keptPhotos = readdirSync(dir).filter((name) => name.startsWith("uploads.before-restore-"));
    expect(keptPhotos).toHaveLength(1);
    expect(readdirSync(join(dir, keptPhotos[0]))).toEqual([newer.split("/").pop()]);

    // The restored database serves: an account from the backup signs in, its photo shows.
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
    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it("refuses a damaged file or one that is not a Freela database, leaving the live one alone", async () => {
    const { env, dbPath, dir } = serverEnv(await freePort());
    migrate(env);
    const before = emails(dbPath);

    const garbage = join(dir, "lixo.db");
    writeFileSync(garbage, Buffer.alloc(8192, 7));
    const bad = runScript("scripts/restore.ts", env, [garbage]);
    expect(bad.code).toBe(1);
    expect(bad.output).toMatch(/cannot be restored/);

    const other = new SQLite(join(dir, "outro.db"));
    other.exec("create table notas (texto text)");
    other.close();
    const foreign = runScript("scripts/restore.ts", env, [join(dir, "outro.db")]);
    expect(foreign.code).toBe(1);
    expect(foreign.output).toMatch(/no users table/);

    expect(runScript("scripts/restore.ts", env, [join(dir, "nao-existe.db")]).code).toBe(1);
    expect(emails(dbPath)).toEqual(before);
    expect(readdirSync(dir).filter((n) => n.includes("restore"))).toEqual([]);
  });
});
