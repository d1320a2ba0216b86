// A database migrated once for the whole Vitest run (globalSetup of the app and app-pg
// projects): scripts/migrate.ts run by itself, without the demo data. tests/support/setup.ts then
// gives every test file a copy of it instead of running every migration again.
import { spawnSync } from "node:child_process";

/** Runs scripts/migrate.ts against the database `env` names; throws with its output if it fails. */
export function migrateTemplate(env: Record<string, string>) {
  const { DATABASE_URL: _url, DATABASE_PATH: _path, ...inherited } = process.env;
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/migrate.ts"], {
    env: { ...inherited, NODE_ENV: "test", SEED_DEMO: "0", ...env },
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`migrating the tests' template failed:\n${run.stdout}${run.stderr}`);
}
