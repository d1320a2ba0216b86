// `npm start` serves with several remix-serve processes on one SQLite file (scripts/serve.ts).
// These run the launcher with two workers and check what must not change with the process
// count: shared rate limits, races that end in 409 (never a 500), a clean stop, a dead worker
// replaced.
import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { validApplication, validOpportunity } from "../../support/fixtures";
import {
  apiUser,
  freePort,
  fresh,
  inspect,
  migrate,
  serverEnv,
  serversPerTest,
  waitUntilRefused,
  type Server,
} from "./server";

const start = serversPerTest();

async function startCluster(extraEnv: Record<string, string> = {}) {
  const port = await freePort();
  const setup = serverEnv(port);
  Object.assign(setup.env, { WEB_CONCURRENCY: "2", ...extraEnv });
  migrate(setup.env);
  const server = await start(setup.env, setup.base, { cluster: true });
  // Both workers listen before the launcher's first health check can be sure to reach either.
  await until(() => workerPids(server).length === 2);
  return { ...setup, port, server };
}

const workerPids = (server: Server) => [...server.log().matchAll(/worker (\d+) serving/g)].map((m) => Number(m[1]));

async function until(condition: () => boolean) {
  while (!condition()) await new Promise((r) => setTimeout(r, 50));
}

describe("npm start with two worker processes", () => {
  it("counts failed logins across both workers", async () => {
    const { base } = await startCluster();
    const user = await apiUser(base, "limite@example.com");
    const attempt = () =>
      fresh(base, "POST", "/api/login", { body: { email: user.email, password: "senha-errada-1" } });
    // Five failures are allowed per e-mail; they land on both workers in turn.
    for (let i = 0; i < 5; i++) expect((await attempt()).status).toBe(401);
    // Kept per process, each worker would have seen only two or three of them.
    const refused = await attempt();
    expect(refused.status).toBe(429);
    expect(String(refused.json.message)).toMatch(/tentativas/i);
    // Even the right password waits now, on either worker.
    const right = await fresh(base, "POST", "/api/login", { body: { email: user.email, password: user.password } });
    expect(right.status).toBe(429);
  });

  it("settles races between the workers with one winner and a 409, never an error", async () => {
    const { base, dbPath } = await startCluster();
    const merchant = await apiUser(base, "contratante@example.com", "merchant");
    const freelancers = [];
    for (let i = 0; i < 2; i++) freelancers.push(await apiUser(base, `freela${i}@example.com`));

    const ROUNDS = 8;
    for (let round = 0; round < ROUNDS; round++) {
      const created = await fresh(base, "POST", "/api/opportunities", {
        token: merchant.token,
        body: { ...validOpportunity, title: `Vaga única ${round + 1}`, vacancies: 1 },
      });
      expect(created.status).toBe(201);
      const uuid = String((created.json.data as { uuid: string }).uuid);
      // Both freelancers apply at the same moment (writes on both workers at once).
      const applied = await Promise.all(
        freelancers.map((f) =>
          fresh(base, "POST", `/api/opportunities/${uuid}/applications`, { token: f.token, body: validApplication }),
        ),
      );
      expect(applied.map((r) => r.status)).toEqual([201, 201]);
      // The merchant accepts both first offers at the same moment: the one vacancy goes to one.
      const ids = applied.map((a) => (a.json.data as { id: string }).id);
      const offers = await Promise.all(
        ids.map(async (id) => {
          const detail = await fresh(base, "GET", `/api/applications/${id}`, { token: merchant.token });
          return (detail.json.data as { offers: { id: string }[] }).offers[0].id;
        }),
      );
      const accepted = await Promise.all(
        ids.map((id, i) =>
          fresh(base, "POST", `/api/applications/${id}/accept`, {
            token: merchant.token,
            body: { offer_id: offers[i] },
          }),
        ),
      );
      expect(accepted.map((r) => r.status).sort()).toEqual([200, 409]);
    }

    const state = inspect(dbPath, (db) => ({
      filled: db
        .prepare("SELECT count(*) AS n FROM opportunities WHERE status = 'filled' AND accepted_count = 1")
        .get(),
      accepted: db.prepare("SELECT count(*) AS n FROM applications WHERE status = 'accepted'").get(),
      rejected: db.prepare("SELECT count(*) AS n FROM applications WHERE status = 'rejected'").get(),
    }));
    expect(state).toEqual({ filled: { n: ROUNDS }, accepted: { n: ROUNDS }, rejected: { n: ROUNDS } });
  });

  it("replaces a worker that dies, and stops every worker on SIGTERM", async () => {
    const { base, port, server } = await startCluster();
    const [first, second] = workerPids(server);
    process.kill(first, "SIGKILL");
    await until(() => workerPids(server).length === 3);
    const replacement = workerPids(server)[2];
    expect([first, second]).not.toContain(replacement);
    for (let i = 0; i < 4; i++) expect((await fresh(base, "GET", "/healthz")).status).toBe(200);

    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
    await waitUntilRefused(port);
    for (const pid of [second, replacement]) expect(() => process.kill(pid, 0)).toThrow();
    expect(server.log()).toContain(`worker ${first} exited (SIGKILL); starting another`);
  });

  it("gives up on a client that holds its request open past the deadline, with code 1", async () => {
    const { base, server } = await startCluster({ SHUTDOWN_GRACE_MS: "300" });
    // A login whose body never finishes: its worker waits for the rest.
    const req = httpRequest(`${base}/api/login`, {
      agent: false,
      method: "POST",
      headers: { "Content-Type": "application/json", "Content-Length": 1000 },
    });
    req.on("error", () => {});
    req.write("{");
    await new Promise((r) => setTimeout(r, 200));
    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 1, signal: null });
    expect(server.log()).toMatch(/workers still running \d+ ms after SIGTERM; killing them/);
    req.destroy();
  });

  it("stops with code 1 when its workers cannot start", async () => {
    const port = await freePort();
    const { env, base } = serverEnv(port);
    migrate(env);
    env.SESSION_SECRET = "curto-demais";
    await expect(start(env, base, { cluster: true })).rejects.toThrow(
      /exited \(code 1\) before it was ready[\s\S]*SESSION_SECRET: must be at least 32 characters[\s\S]*before it could serve; stopping/,
    );
  });

  it("does not start in production without APP_URL, and says why", async () => {
    const port = await freePort();
    const { env, base } = serverEnv(port);
    migrate(env);
    delete env.APP_URL;
    await expect(start(env, base, { cluster: true })).rejects.toThrow(
      /exited \(code 1\) before it was ready[\s\S]*APP_URL: required when NODE_ENV=production[\s\S]*before it could serve; stopping/,
    );
  });
});
