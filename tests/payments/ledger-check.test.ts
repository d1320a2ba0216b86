import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db";

// npm run ledger:check against a database file of its own: 0 when every invariant holds, 1 with
// the broken ones listed otherwise.

const dir = mkdtempSync(join(tmpdir(), "freela-ledger-check-"));
const path = join(dir, "freela.db");
const env = { ...process.env, DATABASE_PATH: path, DATABASE_URL: "", NODE_ENV: "test" as const, SEED_DEMO: "0" };
const run = (script: string) => spawnSync("npx", ["tsx", script], { env, encoding: "utf8", cwd: process.cwd() });

afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The script and its SQLite file are the same whatever engine the other tests run on: once is enough.
describe.skipIf(process.env.TEST_ENGINE === "postgres")("npm run ledger:check", () => {
  it("exits 0 on a sound ledger and 1, naming the break, on an unbalanced transaction", () => {
    expect(run("scripts/migrate.ts").status).toBe(0);
    const ok = run("scripts/ledger-check.ts");
    expect(ok.stdout).toContain("every invariant holds");
    expect(ok.status).toBe(0);

    const { sqlite } = openDatabase(path);
    const at = new Date().toISOString();
    sqlite.prepare("INSERT INTO ledger_transactions (id, kind, created_at) VALUES ('t1', 'release', ?)").run(at);
    sqlite
      .prepare(
        "INSERT INTO ledger_entries (id, transaction_id, account, amount_cents, created_at) VALUES ('e1', 't1', 'fees', 5, ?), ('e2', 't1', 'available:x', -4, ?)",
      )
      .run(at, at);
    sqlite.close();
    const broken = run("scripts/ledger-check.ts");
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain("BROKEN: transaction does not sum to zero: t1");
    expect(broken.stderr).toContain("BROKEN: negative balance: available:x");
  }, 60_000);
});
