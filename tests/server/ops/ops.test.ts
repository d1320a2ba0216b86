// Running it for real: request ids, the JSON access log, /readyz and /metrics of the production
// server as `npm start` runs it (the launcher and two workers), on both engines.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD } from "../../support/server";
import { startPostgres, type Postgres } from "../../support/postgres";
import {
  apiUser,
  freePort,
  inspect,
  migrate,
  removeTempDirs,
  serverEnv,
  serversPerTest,
  startServer,
  stopServer,
  type Server,
} from "../crash/server";

const TOKEN = "metrics-token-0123456789abcdef";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The JSON lines of a server's output (the launcher's own lines are plain text). */
const jsonLines = (server: Server) =>
  server
    .log()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`not found within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The series of one metric: its label sets, from the Prometheus text. */
function series(text: string, name: string) {
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .map((line) => {
      const labels = /\{(.*)\}/.exec(line)?.[1] ?? "";
      return Object.fromEntries([...labels.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    });
}

describe.each(["sqlite", "postgres"] as const)("operating the production server on %s", (engine) => {
  let server: Server;
  let base: string;
  let postgres: Postgres | undefined;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const port = await freePort();
    const setup = serverEnv(port);
    base = setup.base;
    env = { ...setup.env, METRICS_TOKEN: TOKEN, WEB_CONCURRENCY: "2", SHUTDOWN_DRAIN_MS: "3000", OUTBOX_SECONDS: "1" };
    if (engine === "postgres") {
      postgres = await startPostgres();
      await postgres.createDatabase("freela");
      env.DATABASE_URL = postgres.url("freela");
    }
    migrate(env);
    server = await startServer(env, base, { cluster: true });
  });

  afterAll(async () => {
    if (server) await stopServer(server);
    await postgres?.destroy();
    removeTempDirs();
  });

  it("sends back a well-formed X-Request-Id and replaces a malformed one", async () => {
    const kept = await fetch(`${base}/healthz`, { headers: { "X-Request-Id": "lb-req.0123_abc-XYZ" } });
    expect(kept.headers.get("x-request-id")).toBe("lb-req.0123_abc-XYZ");
    for (const bad of ["short", "x".repeat(65), "has space inside", "<script>alert(1)</script>"]) {
      const res = await fetch(`${base}/api/opportunities`, { headers: { "X-Request-Id": bad } });
      await res.arrayBuffer();
      expect(res.headers.get("x-request-id")).toMatch(UUID);
    }
    const none = await fetch(`${base}/`);
    await none.arrayBuffer();
    expect(none.headers.get("x-request-id")).toMatch(UUID);
  });

  it("logs one JSON line per request, with the user's id and never an e-mail or a password", async () => {
    const { email, password, token, id } = await apiUser(base, `log-${engine}@example.com`);
    const wrong = await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Request-Id": `wrong-login-${engine}` },
      body: JSON.stringify({ email, password: "senha-errada-99" }),
    });
    expect(wrong.status).toBe(401);
    const profile = await fetch(`${base}/api/profile?secret=query-text`, {
      headers: { Authorization: `Bearer ${token}`, "X-Request-Id": `profile-${engine}` },
    });
    expect(profile.status).toBe(200);

    const login = await waitFor(
      () => jsonLines(server).find((line) => line.req_id === `wrong-login-${engine}`),
      "the login's line",
    );
    expect(login).toMatchObject({
      level: "info",
      msg: "request",
      method: "POST",
      route: "routes/api+/_auth+/login",
      path: "/api/login",
      status: 401,
    });
    expect(typeof login.ms).toBe("number");
    expect(typeof login.time).toBe("string");
    const signedIn = await waitFor(
      () => jsonLines(server).find((line) => line.req_id === `profile-${engine}`),
      "the profile's line",
    );
    expect(signedIn).toMatchObject({ status: 200, path: "/api/profile", user: id });
    // The load balancer's polls that went well stay out at the default level (the first test's /healthz).
    expect(jsonLines(server).some((line) => line.req_id === "lb-req.0123_abc-XYZ")).toBe(false);
    // The JSON log (the e-mails of the development mail sink are plain text, not in it).
    const json = JSON.stringify(jsonLines(server));
    for (const secret of [email, password, "senha-errada-99", token, "query-text"]) expect(json).not.toContain(secret);
  });

  it("/readyz answers 200 while the server is ready", async () => {
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ready" });
  });

  it("/metrics: 401 without the right token; with it, the whole server's numbers", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-0123456789", TOKEN, `Basic ${TOKEN}`]) {
      const res = await fetch(`${base}/metrics`, { headers: authorization ? { Authorization: authorization } : {} });
      expect(res.status).toBe(401);
      expect(await res.text()).not.toContain("freela_");
    }
    // Refusals to count: 6 wrong passwords for one e-mail (5 judged, then 429).
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${base}/api/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: `ninguem-${engine}@example.com`, password: "senha-errada-1" }),
      });
      await res.arrayBuffer();
      expect(res.status).toBe(i < 5 ? 401 : 429);
    }
    // Many distinct URLs: ids, made-up paths, a user's pages.
    const { token, id } = await apiUser(base, `metrics-${engine}@example.com`);
    const paths = [
      ...Array.from({ length: 200 }, (_, i) => `/opportunities/${i + 1}`),
      ...Array.from({ length: 50 }, (_, i) => `/nonexistent-xyz-${i}`),
      ...Array.from({ length: 50 }, (_, i) => `/api/opportunities/${i + 1}?q=${i}`),
    ];
    for (let i = 0; i < paths.length; i += 10) {
      await Promise.all(
        paths.slice(i, i + 10).map(async (path) => {
          const res = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${token}` } });
          await res.arrayBuffer();
        }),
      );
    }

    const res = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await res.text();
    for (const name of [
      "freela_http_request_duration_seconds",
      "freela_http_requests_in_flight",
      "freela_outbox_depth",
      "freela_outbox_oldest_age_seconds",
      "freela_login_failures_total",
      "freela_rate_limit_refusals_total",
      "freela_db_query_duration_seconds",
      "freela_job_runs_total",
      "freela_job_failures_total",
      "freela_event_streams_open",
      "freela_payments_pending",
      "process_cpu_user_seconds_total",
      "nodejs_heap_size_used_bytes",
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(series(text, "freela_rate_limit_refusals_total")).toContainEqual({ limit: "login_email" });
    const failures = Number(/^freela_login_failures_total (\d+)/m.exec(text)?.[1]);
    expect(failures).toBeGreaterThanOrEqual(5);
    // The database's statements by engine, the jobs by name, payments by state: closed sets.
    expect(series(text, "freela_db_query_duration_seconds_count")).toEqual([{ engine }]);
    expect(Number(/^freela_db_query_duration_seconds_count\S* (\d+)/m.exec(text)?.[1])).toBeGreaterThan(100);
    const jobs = series(text, "freela_job_runs_total");
    expect(jobs).toContainEqual({ job: "mail" });
    for (const labels of jobs) expect(labels.job).toMatch(/^(mail|housekeeping|saved-searches|nfse|export|contracts)$/);
    expect(
      series(text, "freela_payments_pending")
        .map((l) => l.state)
        .sort(),
    ).toEqual(["charge_pending", "payout_requested", "refund_due"]);
    expect(/^freela_event_streams_open (\d+)/m.exec(text)?.[1]).toBe("0");
    // Every series the Grafana dashboard in deploy/ draws exists.
    const dashboard = readFileSync("deploy/grafana-dashboard.json", "utf8");
    for (const [, name] of dashboard.matchAll(/(freela_\w+?)(_bucket|_count|_sum)?\b/g)) {
      expect(text, name).toContain(`# TYPE ${name} `);
    }

    // Bounded: every label is a route id of the build, a method, a status class.
    const build = (await import(pathToFileURL(BUILD).href)) as { routes: Record<string, unknown> };
    const routeIds = new Set([...Object.keys(build.routes), "static", "unmatched"]);
    const counts = series(text, "freela_http_request_duration_seconds_count");
    expect(counts.length).toBeGreaterThan(3);
    expect(counts.length).toBeLessThan(30);
    for (const labels of counts) {
      expect(Object.keys(labels).sort()).toEqual(["method", "route", "status_class"]);
      expect(routeIds.has(labels.route!), labels.route).toBe(true);
      expect(labels.method).toMatch(/^(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|other)$/);
      expect(labels.status_class).toMatch(/^[1-5]xx$/);
    }
    expect(text).not.toMatch(/nonexistent-xyz|opportunities\/\d|q=\d/);
    expect(text).not.toContain(id);
    // Both workers' requests are in the sum (the launcher adds them up; each connection of
    // fetch's pool went to one of them): the 200 opportunity pages, all of them.
    const uuidCount = text
      .split("\n")
      .filter((l) => l.startsWith('freela_http_request_duration_seconds_count{route="routes/opportunities+/$uuid"'))
      .reduce((sum, l) => sum + Number(l.split(" ").pop()), 0);
    expect(uuidCount).toBe(200);
  });

  it("/readyz answers 503 as soon as a stop begins, while the server still answers", async () => {
    server.child.kill("SIGTERM");
    let answer: { status: number; body: unknown } | undefined;
    const deadline = Date.now() + 2_500;
    while (Date.now() < deadline) {
      const res = await fetch(`${base}/readyz`);
      answer = { status: res.status, body: await res.json() };
      if (res.status === 503) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(answer).toEqual({ status: 503, body: { status: "unavailable", reason: "stopping" } });
    // Liveness is another question: the process still answers.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});

describe("readiness when what the server needs is gone", () => {
  const start = serversPerTest();

  it("SQLite: 503 `migrations` when the database lacks one, 503 `storage` when files cannot be written", async () => {
    const port = await freePort();
    const setup = serverEnv(port);
    migrate(setup.env);
    inspect(setup.dbPath, (db) => {
      const last = db.prepare("select name from kysely_migration order by name desc limit 1").get() as { name: string };
      db.prepare("delete from kysely_migration where name = ?").run(last.name);
    });
    const behind = await start(setup.env, setup.base);
    const res = await fetch(`${setup.base}/readyz`);
    expect([res.status, await res.json()]).toEqual([503, { status: "unavailable", reason: "migrations" }]);
    await stopServer(behind);

    const other = serverEnv(await freePort());
    migrate(other.env);
    const server = await start(other.env, other.base);
    expect((await fetch(`${other.base}/readyz`)).status).toBe(200);
    // The uploads folder replaced by a file: nothing can be written there.
    rmSync(other.env.UPLOADS_DIR!, { recursive: true, force: true });
    writeFileSync(other.env.UPLOADS_DIR!, "not a folder");
    const broken = await fetch(`${other.base}/readyz`);
    expect([broken.status, await broken.json()]).toEqual([503, { status: "unavailable", reason: "storage" }]);
    rmSync(other.env.UPLOADS_DIR!);
    expect((await fetch(`${other.base}/readyz`)).status).toBe(200);
    await stopServer(server);
  });

  it("PostgreSQL: 503 `database` while the database server is down, 200 once it is back", async () => {
    const postgres = await startPostgres();
    try {
      await postgres.createDatabase("freela");
      const setup = serverEnv(await freePort());
      const env = { ...setup.env, DATABASE_URL: postgres.url("freela") };
      migrate(env);
      const server = await start(env, setup.base);
      expect((await fetch(`${setup.base}/readyz`)).status).toBe(200);
      await postgres.stop();
      const down = await fetch(`${setup.base}/readyz`);
      expect([down.status, await down.json()]).toEqual([503, { status: "unavailable", reason: "database" }]);
      // The 503 page and the API's 503 body carry the request id too.
      const page = await fetch(`${setup.base}/`, { headers: { "X-Request-Id": "support-503-page" } });
      expect(page.status).toBe(503);
      expect(await page.text()).toContain("Código do erro: support-503-page");
      const api = await fetch(`${setup.base}/api/profile`, {
        headers: { "X-Request-Id": "support-503-api", Authorization: "Bearer some-session-token" },
      });
      expect(api.status).toBe(503);
      expect(await api.json()).toMatchObject({ error_code: "support-503-api" });
      await postgres.start();
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        status = (await fetch(`${setup.base}/readyz`)).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
      await stopServer(server);
    } finally {
      await postgres.destroy();
    }
  });

  it("/metrics does not exist without METRICS_TOKEN", async () => {
    const setup = serverEnv(await freePort());
    migrate(setup.env);
    await start(setup.env, setup.base);
    for (const headers of [{}, { Authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
      const res = await fetch(`${setup.base}/metrics`, { headers });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("freela_");
    }
  });
});
