// Several app servers on one PostgreSQL, as behind a load balancer: two launchers (npm start) on
// two ports, one throwaway PostgreSQL server. What one server does, the other sees; races
// between them end with one winner and 409s; a server killed mid-write loses nothing it
// acknowledged; a PostgreSQL restart is a 503 and then business as usual.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres } from "../../support/postgres";
import { moreJobRuns } from "../../support/server";
import { PNG_1X1, validApplication, validOpportunity } from "../../support/fixtures";
import {
  ROOT,
  apiUser,
  freePort,
  fresh,
  removeTempDirs,
  requireBuild,
  runScript,
  serverEnv,
  startServer,
  type Server,
} from "../crash/server";

type Postgres = Awaited<ReturnType<typeof startPostgres>>;
type Node = { base: string; port: number; server: Server; dir: string };

let postgres: Postgres;
let url: string;
/** The servers stay up from test to test: each test builds on what the previous one left. */
const running: Server[] = [];

beforeAll(async () => {
  requireBuild();
  postgres = await startPostgres();
  await postgres.createDatabase("freela");
  url = postgres.url("freela");
});
afterAll(async () => {
  for (const server of running) if (server.child.exitCode === null) server.child.kill("SIGKILL");
  await postgres?.destroy();
  removeTempDirs();
});

/** Runs `npm run migrate` (scripts/migrate.ts) as its own process; resolves with its exit code and output. */
function migrateProcess(env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; output: string }>((done) => {
    const child = spawn(join(ROOT, "node_modules/.bin/tsx"), [join(ROOT, "scripts/migrate.ts")], { cwd: ROOT, env });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.once("exit", (code) => done({ code, output }));
  });
}

/** A server as npm start runs it (the launcher and one worker), on the shared database. */
async function startNode(): Promise<Node> {
  const port = await freePort();
  const { env, base, dir } = serverEnv(port);
  // The contracts' schedule every second, on both servers: see the test of the automatic completion.
  Object.assign(env, {
    DATABASE_URL: url,
    WEB_CONCURRENCY: "1",
    DATABASE_POOL_SIZE: "5",
    CONTRACT_SCHEDULE_SECONDS: "1",
    JOBS_TRACE: "1",
  });
  const server = await startServer(env, base, { cluster: true });
  running.push(server);
  return { base, port, server, dir };
}

async function query<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

const dataOf = <T>(r: { json: Record<string, unknown> }) => r.json.data as T;

describe("two servers on one PostgreSQL", () => {
  let a: Node;
  let b: Node;

  it("servers starting together apply each migration once", async () => {
    const env = { ...serverEnv(await freePort()).env, DATABASE_URL: url };
    const runs = await Promise.all([migrateProcess(env), migrateProcess(env), migrateProcess(env)]);
    for (const run of runs) expect(run.code, run.output).toBe(0);
    const applied = runs.flatMap((r) => /migrations applied: \d+ \(([^)]*)\)/.exec(r.output)?.[1].split(", ") ?? []);
    const names = await query<{ name: string }>("SELECT name FROM kysely_migration ORDER BY name");
    // Every migration ran in exactly one of the three processes.
    expect(applied.sort()).toEqual(names.map((n) => n.name));
    expect(names.length).toBeGreaterThanOrEqual(9);
  });

  it("share sessions, failed-login counts and photos", async () => {
    [a, b] = await Promise.all([startNode(), startNode()]);
    const ana = await apiUser(a.base, "ana@example.com", "merchant");
    // A session made on A works on B, and a logout on B ends it on A too.
    const profile = await fresh(b.base, "GET", "/api/profile", { token: ana.token });
    expect(profile.status).toBe(200);
    expect((profile.json.user as { email: string }).email).toBe("ana@example.com");

    // Failed logins add up across the servers: 5 allowed per e-mail, spread over both.
    const fail = (node: Node) =>
      fresh(node.base, "POST", "/api/login", { body: { email: "ana@example.com", password: "senha-errada-1" } });
    for (const node of [a, b, a, b, a]) expect((await fail(node)).status).toBe(401);
    expect((await fail(b)).status).toBe(429);
    expect((await fail(a)).status).toBe(429);

    // A photo uploaded through A is served by B.
    const form = new FormData();
    form.set("full_name", "Ana Contratante");
    form.set("photo", new Blob([PNG_1X1], { type: "image/png" }), "foto.png");
    const uploaded = await fetch(`${a.base}/api/profile`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ana.token}` },
      body: form,
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    const photoUrl = ((await uploaded.json()) as { user: { photo_url: string } }).user.photo_url;
    const served = await fetch(`${b.base}${photoUrl}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG_1X1);

    const logout = await fresh(b.base, "POST", "/api/logout", { token: ana.token });
    expect(logout.status).toBe(200);
    expect((await fresh(a.base, "GET", "/api/profile", { token: ana.token })).status).toBe(401);

    // No SQLite file anywhere: not the database, not the rate-limit counters.
    for (const node of [a, b]) expect(existsSync(join(node.dir, "freela.db"))).toBe(false);
  });

  it("end a suspended user's sessions on every server at once: tokens, cookies and sign-in", async () => {
    // An operator made as operator:create makes them, with the password set through its link.
    const env = { ...serverEnv(a.port).env, DATABASE_URL: url, APP_URL: a.base };
    const created = runScript("scripts/operator.ts", env, [
      "create",
      "--email",
      "ops@example.com",
      "--name",
      "Olga Operadora",
    ]);
    expect(created.code, created.output).toBe(0);
    const token = new URL(created.output.match(/https?:\/\/\S+/)![0]).searchParams.get("token")!;
    const reset = await fetch(`${b.base}/reset-password`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: b.base },
      body: new URLSearchParams({ token, password: "senha-do-console-1" }),
      redirect: "manual",
    });
    expect(reset.status).toBe(302);
    const operator = await fresh(b.base, "POST", "/api/login", {
      body: { email: "ops@example.com", password: "senha-do-console-1" },
    });
    expect(operator.status).toBe(200);
    const opsToken = operator.json.access_token as string;

    // Someone signed in twice: an API token from A, a browser cookie from B.
    const user = await apiUser(a.base, "suspensa@example.com", "freelancer");
    const browser = await fetch(`${b.base}/login`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: b.base },
      body: new URLSearchParams({ email: user.email, password: user.password }),
      redirect: "manual",
    });
    expect(browser.status).toBe(302);
    const cookie = browser.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    for (const node of [a, b]) {
      expect((await fresh(node.base, "GET", "/api/profile", { token: user.token })).status).toBe(200);
      expect((await fetch(`${node.base}/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" })).status).toBe(
        200,
      );
    }

    // The operator suspends on B; A refuses both at once, and sign-in says until when.
    const suspended = await fresh(b.base, "POST", `/api/admin/users/${user.id}/sanctions`, {
      token: opsToken,
      body: { action: "suspend", days: 3, reason: "Golpe com Pix." },
    });
    expect(suspended.status, JSON.stringify(suspended.json)).toBe(200);
    for (const node of [a, b]) {
      expect((await fresh(node.base, "GET", "/api/profile", { token: user.token })).status).toBe(401);
      const page = await fetch(`${node.base}/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" });
      expect(page.status).toBe(302);
      expect(page.headers.get("location")).toMatch(/^\/login/);
      const signIn = await fresh(node.base, "POST", "/api/login", {
        body: { email: user.email, password: user.password },
      });
      expect(signIn.status).toBe(403);
      expect(signIn.json.message).toMatch(/^Sua conta está suspensa até \d{2}\/\d{2}\/\d{4}/);
    }
    // Merchants and freelancers never reach the console, on either server.
    const other = await apiUser(a.base, "curiosa@example.com", "merchant");
    for (const node of [a, b]) {
      expect((await fresh(node.base, "GET", "/api/admin/audit", { token: other.token })).status).toBe(404);
    }
    const audit = await query<{ action: string }>("SELECT action FROM audit_log ORDER BY created_at");
    expect(audit.map((r) => r.action)).toEqual(["operator.create", "user.suspend"]);
  });

  it("settle 50 rounds of races between them with one winner and 409s, never a 5xx", async () => {
    const merchants = [];
    const freelancers = [];
    for (let i = 0; i < 5; i++) merchants.push(await apiUser(a.base, `contratante${i}@example.com`, "merchant"));
    for (let i = 0; i < 10; i++) freelancers.push(await apiUser(b.base, `freela${i}@example.com`));
    const statuses: number[] = [];
    const track = async <T extends { status: number }>(p: Promise<T>) => {
      const r = await p;
      statuses.push(r.status);
      return r;
    };

    const ROUNDS = 50;
    for (let round = 0; round < ROUNDS; round++) {
      const merchant = merchants[round % merchants.length];
      const [f1, f2] = [freelancers[(2 * round) % 10], freelancers[(2 * round + 1) % 10]];
      const created = await track(
        fresh(a.base, "POST", "/api/opportunities", {
          token: merchant.token,
          body: { ...validOpportunity, title: `Vaga única ${round + 1}`, vacancies: 1 },
        }),
      );
      expect(created.status).toBe(201);
      const uuid = dataOf<{ uuid: string }>(created).uuid;
      const applyPath = `/api/opportunities/${uuid}/applications`;

      // The same freelancer applies twice at once, once on each server: one application.
      const duplicate = await Promise.all(
        [a, b].map((node) => track(fresh(node.base, "POST", applyPath, { token: f1.token, body: validApplication }))),
      );
      expect(duplicate.map((r) => r.status).sort()).toEqual([201, 409]);
      const second = await track(fresh(b.base, "POST", applyPath, { token: f2.token, body: validApplication }));
      expect(second.status).toBe(201);
      const ids = [
        dataOf<{ id: string }>(duplicate.find((r) => r.status === 201)!).id,
        dataOf<{ id: string }>(second).id,
      ];
      const offers = await Promise.all(
        ids.map(async (id) => {
          const detail = await fresh(a.base, "GET", `/api/applications/${id}`, { token: merchant.token });
          return dataOf<{ offers: { id: string }[] }>(detail).offers[0].id;
        }),
      );

      // The last vacancy accepted twice (one on each server) and the opportunity closed, all at
      // once: exactly one of the three wins.
      const moves = await Promise.all([
        track(
          fresh(a.base, "POST", `/api/applications/${ids[0]}/accept`, {
            token: merchant.token,
            body: { offer_id: offers[0] },
          }),
        ),
        track(
          fresh(b.base, "POST", `/api/applications/${ids[1]}/accept`, {
            token: merchant.token,
            body: { offer_id: offers[1] },
          }),
        ),
        track(
          fresh(round % 2 ? a.base : b.base, "POST", `/api/opportunities/${uuid}/close`, { token: merchant.token }),
        ),
      ]);
      expect(moves.map((r) => r.status).sort(), JSON.stringify(moves.map((r) => r.json))).toEqual([200, 409, 409]);
    }
    expect(statuses.filter((s) => s >= 500)).toEqual([]);

    // The counters equal the rows.
    const [counts] = await query<Record<string, number>>(`SELECT
        (SELECT count(*) FROM opportunities)::int AS opportunities,
        (SELECT count(*) FROM applications)::int AS applications,
        (SELECT count(*) FROM applications WHERE status = 'accepted')::int AS accepted,
        (SELECT count(*) FROM opportunities WHERE status = 'filled')::int AS filled,
        (SELECT count(*) FROM opportunities WHERE status = 'closed')::int AS closed,
        (SELECT count(*) FROM applications a JOIN opportunities o ON o.id = a.opportunity_id
          WHERE o.status <> 'open' AND a.status IN ('pending', 'countered'))::int AS negotiating_on_shut,
        (SELECT count(*) FROM opportunities o WHERE o.applications_count <>
          (SELECT count(*) FROM applications a WHERE a.opportunity_id = o.id))::int AS wrong_applications_count,
        (SELECT count(*) FROM opportunities o WHERE o.accepted_count <>
          (SELECT count(*) FROM applications a WHERE a.opportunity_id = o.id AND a.status = 'accepted'))::int AS wrong_accepted_count,
        (SELECT count(*) FROM applications a WHERE a.offers_count <>
          (SELECT count(*) FROM offers f WHERE f.application_id = a.id))::int AS wrong_offers_count`);
    expect(counts).toMatchObject({
      opportunities: ROUNDS,
      applications: 2 * ROUNDS,
      accepted: counts.filled,
      negotiating_on_shut: 0,
      wrong_applications_count: 0,
      wrong_accepted_count: 0,
      wrong_offers_count: 0,
    });
    expect(counts.filled + counts.closed).toBe(ROUNDS);
  });

  it("share contract files, and complete a delivery left unanswered once, though both run the schedule", async () => {
    const merchant = await apiUser(a.base, "contratante-agenda@example.com", "merchant");
    const freelancer = await apiUser(b.base, "freela-agenda@example.com");
    const opp = dataOf<{ uuid: string }>(
      await fresh(a.base, "POST", "/api/opportunities", { token: merchant.token, body: validOpportunity }),
    );
    const app = dataOf<{ id: string }>(
      await fresh(b.base, "POST", `/api/opportunities/${opp.uuid}/applications`, {
        token: freelancer.token,
        body: validApplication,
      }),
    );
    const offers = dataOf<{ offers: { id: string }[] }>(
      await fresh(a.base, "GET", `/api/applications/${app.id}`, { token: merchant.token }),
    ).offers;
    expect(
      (
        await fresh(a.base, "POST", `/api/applications/${app.id}/accept`, {
          token: merchant.token,
          body: { offer_id: offers[0].id },
        })
      ).status,
    ).toBe(200);

    // Delivered with a file through B; the merchant downloads it through A.
    const form = new FormData();
    form.set("message", "Entrega pronta.");
    form.append("files", new Blob([PNG_1X1], { type: "image/png" }), "entrega.png");
    const delivered = await fetch(`${b.base}/api/contracts/${app.id}/deliveries`, {
      method: "POST",
      headers: { Authorization: `Bearer ${freelancer.token}` },
      body: form,
    });
    expect(delivered.status, await delivered.clone().text()).toBe(201);
    const events = ((await delivered.json()) as { data: { events: { files: { url: string }[] }[] } }).data.events;
    const file = await fetch(`${a.base}${events.at(-1)!.files[0]!.url}`, {
      headers: { Authorization: `Bearer ${merchant.token}` },
    });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG_1X1);

    // Fourteen days pass without an answer: both servers' schedules find the delivery.
    await query("UPDATE contracts SET review_due_at = '2000-01-01T00:00:00.000Z' WHERE id = $1", [app.id]);
    let status = "";
    for (let i = 0; i < 100 && status !== "completed"; i++) {
      status = (await query<{ status: string }>("SELECT status FROM contracts WHERE id = $1", [app.id]))[0]!.status;
      if (status !== "completed") await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe("completed");
    // A few more rounds of both schedules change nothing.
    await moreJobRuns([a.server, b.server], "contracts", 2);
    const completions = await query<{ n: number }>(
      "SELECT count(*)::int AS n FROM contract_events WHERE contract_id = $1 AND kind = 'auto_completed'",
      [app.id],
    );
    expect(completions[0]!.n).toBe(1);
    const notices = await query<{ user_id: string }>(
      "SELECT user_id FROM notifications WHERE application_id = $1 AND kind = 'contract_auto_completed' ORDER BY user_id",
      [app.id],
    );
    expect(notices.map((n) => n.user_id)).toEqual([merchant.id, freelancer.id].sort());
  });

  it("loses no acknowledged write when one server is killed with SIGKILL, and the other keeps serving", async () => {
    const merchant = await apiUser(b.base, "sobrevivente@example.com", "merchant");
    const acknowledged: string[] = [];
    const failedOnB: number[] = [];
    let stop = false;
    // Writes go to both servers in turn until A is gone and B has served 20 more.
    const writer = (async () => {
      let afterKill = 0;
      for (let i = 0; !stop || afterKill < 20; i++) {
        const node = i % 2 ? a : b;
        try {
          const r = await fresh(node.base, "POST", "/api/opportunities", {
            token: merchant.token,
            body: { ...validOpportunity, title: `Gravação número ${i}` },
          });
          if (r.status === 201) acknowledged.push(dataOf<{ uuid: string }>(r).uuid);
          else if (node === b) failedOnB.push(r.status);
        } catch {
          // A's connection was cut: that write was never acknowledged.
          if (node === b) failedOnB.push(0);
        }
        if (stop) afterKill++;
        if (i > 400) break;
      }
    })();
    while (acknowledged.length < 15) await new Promise((r) => setTimeout(r, 5));
    // The launcher and its worker, at once: no chance to finish anything.
    const workers = [...a.server.log().matchAll(/worker (\d+) serving/g)].map((m) => Number(m[1]));
    for (const pid of [a.server.child.pid!, ...workers]) process.kill(pid, "SIGKILL");
    stop = true;
    await writer;

    expect(failedOnB).toEqual([]);
    const stored = await query<{ uuid: string }>("SELECT uuid FROM opportunities WHERE uuid = ANY($1)", [acknowledged]);
    expect(stored.length).toBe(acknowledged.length);
    expect((await fresh(b.base, "GET", "/healthz")).status).toBe(200);
  });

  it("answer 503 while PostgreSQL is down and recover by themselves when it is back", async () => {
    const user = await apiUser(b.base, "paciente@example.com");
    await postgres.stop();
    const down = await fresh(b.base, "GET", "/healthz");
    expect(down.status).toBe(503);
    const api = await fresh(b.base, "GET", "/api/profile", { token: user.token });
    expect(api.status).toBe(503);
    expect(String(api.json.message)).toMatch(/indisponível/);
    // Pages too: a 503 page in Portuguese with Retry-After, never a 500 — the document, a
    // script's data request for it, a page form's post, and the files pages show.
    const page = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`${b.base}${path}`, {
        redirect: "manual",
        ...init,
        headers: { Authorization: `Bearer ${user.token}`, ...init.headers },
      });
      return { status: res.status, retry: res.headers.get("Retry-After"), text: await res.text() };
    };
    for (const [path, init] of [
      ["/opportunities", {}],
      ["/opportunities?page=2", {}],
      ["/dashboard", {}],
      [`/opportunities?_data=${encodeURIComponent("routes/opportunities+/_index")}`, {}],
      [
        "/pages/profile-setting",
        {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: "full_name=Nome+Novo",
        },
      ],
      ["/uploads/00000000-0000-4000-8000-000000000000.png", {}],
      ["/contracts/00000000-0000-4000-8000-000000000000/files/00000000-0000-4000-8000-000000000000", {}],
    ] as [string, RequestInit][]) {
      const answer = await page(path, init);
      expect(answer.status, path).toBe(503);
      expect(answer.retry, path).toBe("5");
      expect(answer.text, path).toMatch(/indisponível/);
    }

    await postgres.start();
    let healthy = 0;
    for (let i = 0; i < 100 && healthy !== 200; i++) {
      healthy = (await fresh(b.base, "GET", "/healthz")).status;
      if (healthy !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(healthy).toBe(200);
    expect((await fresh(b.base, "GET", "/api/profile", { token: user.token })).status).toBe(200);
    // It never went down with the database.
    expect(b.server.child.exitCode).toBeNull();
    expect(b.server.log()).not.toMatch(/exited \(/);
  });
});
