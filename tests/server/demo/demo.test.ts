// What a newcomer sees from the README's first command (`npm run demo`): the build, the demo
// database with the logins the README lists, and a server whose first minutes print no e-mail.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { demoLoginLines } from "../../../db/seed";
import { moreJobRuns } from "../../support/server";
import { ROOT, freePort, runScript, serverEnv, serversPerTest } from "../crash/server";

const startServer = serversPerTest();

describe("npm run demo", () => {
  it("builds without the Vite CJS deprecation warning", () => {
    const scripts = JSON.parse(readFileSync(`${ROOT}/package.json`, "utf8")).scripts as Record<string, string>;
    expect(scripts.demo.startsWith("npm run build")).toBe(true);
    // As a shell runs it: no NODE_ENV (the test runner's "test" would make a development build).
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => name !== "NODE_ENV"),
    ) as NodeJS.ProcessEnv;
    const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, env, encoding: "utf8" });
    expect(build.status).toBe(0);
    const output = `${build.stdout}${build.stderr}`;
    expect(output).toContain("built");
    expect(output).toContain("NODE_ENV=production");
    expect(output).not.toMatch(/CJS build of Vite/i);
  });

  it("prints exactly the README's demo logins, then serves without announcing any seeded e-mail", async () => {
    const port = await freePort();
    const { env, base } = serverEnv(port);
    // As the demo script runs it: a development migration seeds the new database.
    const migrated = runScript("scripts/migrate.ts", { ...env, NODE_ENV: "development", SEED_DEMO: "1" });
    expect(migrated.code).toBe(0);
    const lines = migrated.output.trim().split("\n");
    expect(lines[0]).toMatch(/^migrations applied: \d+ \(/);
    expect(lines.slice(1).filter((l) => l.trim() !== "")).toEqual(demoLoginLines());

    // The contracts' schedule and the outbox run at once and again every second: the seed left
    // them nothing to do, so nothing reaches the log as an e-mail, however many times they run.
    const server = await startServer(
      { ...env, CONTRACT_SCHEDULE_SECONDS: "1", OUTBOX_SECONDS: "1", JOBS_TRACE: "1" },
      base,
    );
    await moreJobRuns([server], "contracts", 2);
    await moreJobRuns([server], "mail", 2);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(server.log()).not.toContain("[mail]");
  });
});
