// `npm start` on a throwaway PostgreSQL, for the browser tests' second project: starts the
// server (tests/support/postgres.ts), migrates and seeds it (scripts/migrate.ts, SEED_DEMO as
// given), then runs the launcher with DATABASE_URL until told to stop, and removes it all.
import { spawn, spawnSync } from "node:child_process";
import { startPostgres } from "./postgres";

const postgres = await startPostgres();
await postgres.createDatabase("freela");
const env = { ...process.env, DATABASE_URL: postgres.url("freela") };
const migrated = spawnSync(process.execPath, ["--import", "tsx", "scripts/migrate.ts"], { env, stdio: "inherit" });
if (migrated.status !== 0) {
  await postgres.destroy();
  process.exit(1);
}
const launcher = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts"], { env, stdio: "inherit" });
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => launcher.kill(signal));
launcher.once("exit", async (code) => {
  await postgres.destroy();
  process.exit(code ?? 1);
});
