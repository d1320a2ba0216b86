// Load benchmark of the production build (`npm run bench`; not part of `npm test`).
//
// Seeds a fresh temporary database through the seed CLI, starts the production build as
// `npm start` does (scripts/serve.ts: one server process per core, scripts/server.js) on a free
// port and drives it with autocannon. Prints a table and writes bench/results/latest.json
// (bench/results/scale.json with --scale, bench/results/bare.json for the case "bare").
//
//   npm run bench                        100 000 opportunities, 50 connections, 10 s per case
//   npm run bench -- --quick             3 s per case, 1 s warm-up
//   npm run bench -- --duration 5        seconds per case
//   npm run bench -- --only list,search  some cases only
//   npm run bench -- --only parts        /healthz while bodies of ~400 000 tiny parts arrive
//   npm run bench -- --only admin        the operator's metrics (API and page /admin, 90 days)
//   npm run bench -- --only services     the catalogue's JSON list, search and filters at as many
//                                        published services as opportunities (seeded for the run),
//                                        beside the opportunities' (--only list,search,services)
//   npm run bench -- --only public       a visitor's public opportunity page (CPU per request) and
//                                        the first sitemap page of opportunities
//   npm run bench -- --only saved-searches  one digest run of 10 000 saved searches over 1 000 new
//                                        opportunities (bench/saved-searches.ts; SQLite, no server)
//   npm run bench -- --only hourly       the hourly contract's page for the freelancer with 200 entries
//                                        (req/s in one process, statements) and the weekly job over
//                                        10 000 hourly contracts (time and statements per run)
//                                        (bench/hourly.ts; its own process, after npm run build; SQLite)
//   npm run bench -- --only nfse         1 000 notas fiscais issued by drainNotas through the mutual-TLS
//                                        client against the Sefin stand-in (bench/nfse.ts; its own
//                                        process, the stand-in in another), CPU per nota; SQLite
//   npm run bench -- --only bare         the JSON list on a bare node:http + better-sqlite3 server
//                                        (bench/bare-server.ts) against the app with one server
//                                        process, the CPU per request of one process, and the
//                                        signed-in list page against its bare SSR reference
//                                        (bench/bare-page.tsx: react-dom/server, no Remix)
//   npm run bench -- --only events       live updates: 2 000 open event streams in one process (extra
//                                        memory), and with two servers on one throwaway PostgreSQL
//                                        a message written on one heard on the other (p50/p99 at
//                                        200 messages/s); bench/results/events.json
//   npm run bench -- --opportunities N   another data size
//   npm run bench -- --db FILE           start from a copy of an already seeded database (with the
//                                        services already in it, case "services" seeds none)
//   npm run bench -- --cache DIR         keep seeded databases in DIR (seed-N.db) and reuse them
//   npm run bench -- --keep              keep the temporary directory (its path is printed)
//   npm run bench -- --scale             list and search at 10 000 and at 1 000 000 opportunities
//                                        (both servers up, alternating runs, median p99 of 3 rounds)
//   npm run bench -- --profile           the server writes CPU profiles into bench/results/profiles
//   npm run bench -- --workers N         N server processes (WEB_CONCURRENCY; default one per core)
//   npm run bench -- --database postgres the same cases on a throwaway PostgreSQL holding a copy of
//                                        the seeded data (npm run db:copy); results in latest-postgres.json
import autocannon from "autocannon";
import bcrypt from "bcryptjs";
import SQLite from "better-sqlite3";
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { termsVersion } from "../app/services/accounts/terms-version";
import { freePort } from "../tests/support/net";
import { spawnServer, stopServer, type ServerProcess } from "../tests/support/server";
import { startPostgres, type Postgres } from "../tests/support/postgres";
import { eventsCase } from "./events";

// ---------------------------------------------------------------------------------------------
// Options

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    duration: { type: "string" },
    warmup: { type: "string" },
    connections: { type: "string", default: "50" },
    opportunities: { type: "string", default: "100000" },
    only: { type: "string" },
    db: { type: "string" },
    cache: { type: "string" },
    keep: { type: "boolean", default: false },
    scale: { type: "boolean", default: false },
    profile: { type: "boolean", default: false },
    workers: { type: "string" },
    database: { type: "string", default: "sqlite" },
  },
});

if (args.database !== "sqlite" && args.database !== "postgres") {
  console.error("--database takes sqlite or postgres");
  process.exit(1);
}
const POSTGRES = args.database === "postgres";

const DURATION = Number(args.duration ?? (args.quick ? 3 : 10));
const WARMUP = Number(args.warmup ?? (args.quick ? 1 : 2));
const CONNECTIONS = Number(args.connections);
const OPPORTUNITIES = Number(args.opportunities);
/** Server processes (WEB_CONCURRENCY); by default as `npm start`: one per core. */
const WORKERS_ARG = args.workers;
const ONLY = args.only ? new Set(args.only.split(",")) : null;
const BCRYPT_COST = process.env.BCRYPT_COST || "10";
const PASSWORD = "bench-password-123";
// The search of the search cases: one word and two filters, as a freelancer would type them.
const SEARCH = { q: "site", category: "desenvolvimento", location_type: "remote" };
/** Case "services": a search of the catalogue by relevance, and its filters with another order. */
const SERVICE_SEARCH = { q: "logotipo" };
const SERVICE_FILTERS = { category: "design", max_price_cents: 150_000, sort: "price" };
const WRITERS = 400; // freelancers sharing the application writes (each has a per-minute write limit)
const LOGINS_PER_SECOND = 20;

const BUDGETS = {
  listRps: 1500,
  listP99: 50,
  pageRps: 400,
  pageP99: 100,
  burstRatio: 2,
  scaleRatio: 2,
  /** Case "bare": req/s of the app (one process) over the bare server's, on the JSON list. */
  bareRatio: 0.5,
  /** The JSON list's CPU per request, bare over app, one process each (at most 1.6 x the bare's). */
  bareCpuRatio: 0.62,
  /** Case "bare": CPU ms per request of one server process. */
  healthzCpuMs: 0.5,
  listCpuMs: 1.1,
  pageCpuMs: 7,
  /** Case "bare": CPU per request of the app's list page over its bare SSR reference's. */
  pageOverBareSsr: 2,
  /** Case "services": the catalogue's list and search over the opportunities' (req/s). */
  servicesRatio: 0.8,
};

// ---------------------------------------------------------------------------------------------
// Small helpers

const root = process.cwd();
const log = (message: string) => console.info(`[bench] ${message}`);
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const query = (params: Record<string, string | number>) =>
  "?" + new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

function machine() {
  const cpu = readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.+)$/m)?.[1] ?? os.cpus()[0]?.model;
  const nproc = os.availableParallelism();
  const workers = Number(WORKERS_ARG ?? process.env.WEB_CONCURRENCY) || nproc;
  return { nproc, cpu, node: process.version, platform: `${os.platform()} ${os.release()}`, server_processes: workers };
}

/**
 * CPU seconds (user + system, all threads) the server has used so far: the launcher and its
 * worker processes, from /proc.
 */
function cpuSeconds(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    const own = (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in ticks of 1/100 s
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    return children.reduce((sum, child) => sum + cpuSeconds(Number(child)), own);
  } catch {
    return NaN;
  }
}

/** Resident memory (MB) of the server: the launcher and its worker processes, from /proc. */
function residentMb(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const own = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
    return children.reduce((sum, child) => sum + residentMb(Number(child)), own);
  } catch {
    return NaN;
  }
}

function run(command: string, argv: string[], env: NodeJS.ProcessEnv) {
  const started = Date.now();
  const result = spawnSync(command, argv, { cwd: root, env, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${command} ${argv.join(" ")} failed (${result.status ?? result.signal})`);
  return (Date.now() - started) / 1000;
}

// ---------------------------------------------------------------------------------------------
// Database: seed it, then add what the benchmark needs (known passwords, a pool of writers)

type Fixture = {
  dir: string;
  dbPath: string;
  counts: { opportunities: number; open: number; applications: number; users: number; services: number };
  seedSeconds: number | null;
  reader: { email: string; applications: number };
  writerTokens: string[];
  openUuids: string[];
  loginEmail: string;
  /** A session of an operator account (the console's metrics). */
  operatorToken: string;
};

/** How many published services a database holds. */
function publishedServices(dbPath: string): number {
  const sqlite = new SQLite(dbPath, { readonly: true });
  try {
    return (sqlite.prepare("SELECT count(*) AS n FROM services WHERE status = 'published'").get() as { n: number }).n;
  } finally {
    sqlite.close();
  }
}

function prepareDatabase(opportunities: number, given?: string): Fixture {
  const dir = mkdtempSync(join(os.tmpdir(), "freela-bench-"));
  const cached = args.cache ? join(args.cache, `seed-${opportunities}.db`) : undefined;
  const source = given ?? (cached && existsSync(cached) ? cached : undefined);
  const dbPath = join(dir, "freela.db");
  let seedSeconds: number | null = null;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    SESSION_SECRET: randomBytes(32).toString("hex"),
    DATABASE_PATH: dbPath,
    UPLOADS_DIR: join(dir, "uploads"),
    BCRYPT_COST,
  };
  const tsx = join(root, "node_modules/tsx/dist/cli.mjs");
  if (source) {
    log(`copying ${source}`);
    copyFileSync(source, dbPath);
    run(process.execPath, [tsx, "scripts/migrate.ts"], env);
  } else {
    log(`seeding ${opportunities.toLocaleString("en")} opportunities into ${dbPath} (load ${load()})`);
    seedSeconds = run(process.execPath, [tsx, "scripts/seed.ts", "--opportunities", String(opportunities)], env);
    log(`seeded in ${seedSeconds.toFixed(1)} s`);
    if (cached) {
      mkdirSync(args.cache!, { recursive: true });
      const keep = new SQLite(dbPath);
      keep.pragma("wal_checkpoint(TRUNCATE)");
      keep.close();
      copyFileSync(dbPath, cached);
      log(`kept a copy in ${cached}`);
    }
  }
  if (wanted("services") && publishedServices(dbPath) < opportunities) {
    // The catalogue of packaged services, as many as opportunities, for their freelancers (a
    // database given with them already, --db of a kept run, is not seeded twice).
    log(`seeding ${opportunities.toLocaleString("en")} services (load ${load()})`);
    const seconds = run(process.execPath, [tsx, "scripts/seed.ts", "--services", String(opportunities)], env);
    log(`seeded the services in ${seconds.toFixed(1)} s`);
  }

  const sqlite = new SQLite(dbPath);
  sqlite.pragma("journal_mode = WAL");
  const count = (sql: string) => (sqlite.prepare(sql).get() as { n: number }).n;
  const counts = {
    opportunities: count("SELECT count(*) AS n FROM opportunities"),
    open: count("SELECT count(*) AS n FROM opportunities WHERE status = 'open'"),
    applications: count("SELECT count(*) AS n FROM applications"),
    users: count("SELECT count(*) AS n FROM users"),
    services: count("SELECT count(*) AS n FROM services WHERE status = 'published'"),
  };
  log(`data: ${JSON.stringify(counts)}`);

  // The reader: a freelancer with a typical number of applications (the median of those with any).
  const readers = sqlite
    .prepare(
      `SELECT u.id, u.email, count(*) AS n FROM applications a JOIN users u ON u.id = a.freelancer_id
       GROUP BY u.id ORDER BY n`,
    )
    .all() as { id: string; email: string; n: number }[];
  if (readers.length === 0) throw new Error("The seeded database has no freelancer with applications.");
  const reader = readers[Math.floor(readers.length / 2)];
  const hash = bcrypt.hashSync(PASSWORD, Number(BCRYPT_COST));
  sqlite.prepare("UPDATE users SET password_hash = ? WHERE id = ?").run(hash, reader.id);
  // A database seeded before the terms existed (a kept copy) has accounts that would be asked to
  // accept them before anything else: the bench's accounts have accepted the current version.
  sqlite.prepare("UPDATE users SET terms_version = ? WHERE terms_version IS NULL").run(termsVersion());

  // Freelancers for the writes: new accounts with sessions inserted directly (hash of the token,
  // as the server stores it), so each request applies to an opportunity nobody of them applied to.
  const now = new Date();
  const expires = new Date(now.getTime() + 86_400_000).toISOString();
  const insertUser = sqlite.prepare(
    `INSERT INTO users (id, email, password_hash, display_name, full_name, account_type, bio, skills, photo_path, terms_version, created_at, updated_at)
     VALUES (?, ?, ?, NULL, ?, 'freelancer', '', '[]', NULL, '${termsVersion()}', ?, ?)`,
  );
  const insertSession = sqlite.prepare(
    "INSERT INTO sessions (id, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)",
  );
  const writerTokens: string[] = [];
  const operatorToken = randomBytes(32).toString("base64url");
  const loginEmail = `bench-login-${randomUUID().slice(0, 8)}@freela.dev`;
  sqlite.transaction(() => {
    for (let i = 0; i < WRITERS; i++) {
      const id = randomUUID();
      const token = randomBytes(32).toString("base64url");
      insertUser.run(
        id,
        `bench-writer-${i}@freela.dev`,
        hash,
        `Bench Writer ${i}`,
        now.toISOString(),
        now.toISOString(),
      );
      insertSession.run(sha256(token), id, expires, now.toISOString());
      writerTokens.push(token);
    }
    // The account of the login burst.
    insertUser.run(randomUUID(), loginEmail, hash, "Bench Login", now.toISOString(), now.toISOString());
    // The operator reading the console's metrics.
    const operatorId = randomUUID();
    insertUser.run(
      operatorId,
      `bench-operator@freela.dev`,
      hash,
      "Bench Operator",
      now.toISOString(),
      now.toISOString(),
    );
    sqlite.prepare("UPDATE users SET account_type = 'operator' WHERE id = ?").run(operatorId);
    // With two-factor sign-in on, as the console requires of operators.
    sqlite
      .prepare("INSERT INTO two_factor (user_id, secret, confirmed_at, last_step, created_at) VALUES (?, ?, ?, 0, ?)")
      .run(operatorId, "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", now.toISOString(), now.toISOString());
    insertSession.run(sha256(operatorToken), operatorId, expires, now.toISOString());
  })();

  // Open opportunities spread over the whole table, in random order.
  const openUuids = (
    sqlite.prepare("SELECT uuid FROM opportunities WHERE status = 'open' ORDER BY random() LIMIT 60000").all() as {
      uuid: string;
    }[]
  ).map((r) => r.uuid);
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  sqlite.close();
  return {
    dir,
    dbPath,
    counts,
    seedSeconds,
    reader: { email: reader.email, applications: reader.n },
    writerTokens,
    openUuids,
    loginEmail,
    operatorToken,
  };
}

// ---------------------------------------------------------------------------------------------
// Server

type Server = ServerProcess & { base: string };

let serverPid: number | undefined;

/**
 * Starts the app as `npm start` serves it (migrations are already applied): the launcher and
 * its workers (`workers`, else --workers, else one per core). `script`: another server to run
 * in its place on the same database (the bare one).
 */
async function startServer(
  fixture: Fixture,
  databaseUrl?: string,
  { workers = WORKERS_ARG, script }: { workers?: string; script?: string } = {},
): Promise<Server> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await spawnServer({
    base,
    nodeArgs: [
      ...(args.profile ? ["--cpu-prof", `--cpu-prof-dir=${join(root, "bench/results/profiles")}`] : []),
      "--import",
      "tsx",
    ],
    script: script ? [join(root, script)] : [join(root, "scripts/serve.ts"), "./build/index.js"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: base,
      ...(workers ? { WEB_CONCURRENCY: workers } : {}),
      SESSION_SECRET: randomBytes(32).toString("hex"),
      DATABASE_PATH: fixture.dbPath,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      UPLOADS_DIR: join(fixture.dir, "uploads"),
      BCRYPT_COST,
      SEED_DEMO: "0",
    },
    // The bare server has no /healthz: any answer means it listens.
    anyAnswer: Boolean(script),
    pollMs: 200,
    timeoutMs: 60_000,
    keepChunks: 200,
  });
  log(`server pid ${server.child.pid} on ${base}`);
  serverPid = server.child.pid;
  return { base, ...server };
}

async function apiLogin(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!res.ok) throw new Error(`POST /api/login answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Signs in through the login page, as a browser does, and returns the session cookie. */
async function pageLogin(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base },
    body: new URLSearchParams({ email, password: PASSWORD, redirectFrom: "/opportunities" }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("freela_session="));
  if (res.status !== 302 || !cookie) throw new Error(`POST /login answered ${res.status} without a session cookie`);
  return cookie;
}

// ---------------------------------------------------------------------------------------------
// Load

type CaseResult = {
  name: string;
  requests_per_sec: number;
  requests: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  max_ms: number;
  /** Server CPU time per request (all its threads): steadier than req/s on a shared machine. */
  server_cpu_ms_per_req: number;
  /** Failed requests (no answer), timeouts included. */
  errors: number;
  timeouts: number;
  error_codes: Record<string, number>;
  non_2xx: number;
  load_before: string;
};

// Browsers and common HTTP clients ask for gzip (the server does not compress: the reverse
// proxy in front does, see deploy/nginx.conf).
const CLIENT_HEADERS = { "Accept-Encoding": "gzip" };

function summarise(name: string, r: Run, loadBefore: string, cpu = NaN): CaseResult {
  return {
    name,
    requests_per_sec: Math.round(r.requests.average),
    requests: r.requests.total,
    p50_ms: r.latency.p50,
    p90_ms: r.latency.p90,
    p99_ms: r.latency.p99,
    max_ms: r.latency.max,
    server_cpu_ms_per_req: Number(((cpu * 1000) / Math.max(1, r.requests.total)).toFixed(3)),
    errors: r.errors,
    timeouts: r.timeouts,
    error_codes: r.errorCodes,
    non_2xx: r.non2xx,
    load_before: loadBefore,
  };
}

type Run = autocannon.Result & { errorCodes: Record<string, number> };

/**
 * The login burst, as a timed loop: LOGINS_PER_SECOND clients each start a login every second
 * (or as soon as their previous one ends, if it took longer), for `seconds`. (autocannon's
 * overallRate reported timeouts for logins that a plain client saw answered within 2 s.)
 */
async function loginBurst(url: string, body: string, seconds: number): Promise<Run> {
  const latencies: number[] = [];
  const errorCodes: Record<string, number> = {};
  let errors = 0;
  let timeouts = 0;
  let non2xx = 0;
  const started = Date.now();
  const end = started + seconds * 1000;
  const client = async (offset: number) => {
    await new Promise((r) => setTimeout(r, offset));
    while (Date.now() < end) {
      const slot = Date.now();
      const t = performance.now();
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json", ...CLIENT_HEADERS },
          body,
          signal: AbortSignal.timeout(30_000),
        });
        await res.arrayBuffer();
        if (res.ok) latencies.push(performance.now() - t);
        else non2xx++;
      } catch (error) {
        errors++;
        const code =
          (error as Error).name === "TimeoutError" ? "timeout (30 s)" : ((error as Error).message ?? "error");
        if ((error as Error).name === "TimeoutError") timeouts++;
        errorCodes[code] = (errorCodes[code] ?? 0) + 1;
      }
      await new Promise((r) => setTimeout(r, Math.max(0, slot + 1000 - Date.now())));
    }
  };
  await Promise.all(Array.from({ length: LOGINS_PER_SECOND }, (_, i) => client((i * 1000) / LOGINS_PER_SECOND)));
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies.length
      ? Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1))
      : 0;
  const total = latencies.length + non2xx;
  return {
    requests: { average: total / ((Date.now() - started) / 1000), total },
    latency: { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) },
    errors,
    timeouts,
    non2xx,
    errorCodes,
  } as unknown as Run;
}

/** One autocannon run; also tallies what the failed requests failed with. */
function cannon(options: autocannon.Options): Promise<Run> {
  return new Promise((resolve, reject) => {
    const errorCodes: Record<string, number> = {};
    const instance = autocannon({ connections: CONNECTIONS, ...options }, (error, result) =>
      error ? reject(error) : resolve(Object.assign(result, { errorCodes })),
    );
    instance.on("reqError", (error: NodeJS.ErrnoException) => {
      const code = error.code ?? error.message;
      errorCodes[code] = (errorCodes[code] ?? 0) + 1;
    });
  });
}

/** A warm-up run (discarded), then the measured one. */
async function measure(name: string, options: autocannon.Options): Promise<CaseResult> {
  if (WARMUP > 0) await cannon({ ...options, duration: WARMUP });
  const before = load();
  const cpu = cpuSeconds(serverPid);
  const run = await cannon({ ...options, duration: DURATION });
  const result = summarise(name, run, before, cpuSeconds(serverPid) - cpu);
  print([result], false);
  return result;
}

/** Cycles through a list of paths, one per request. */
function rotating(paths: string[], headers: Record<string, string>): autocannon.Request[] {
  let i = 0;
  return [
    {
      setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length], headers: { ...req.headers, ...headers } }),
    },
  ];
}

function print(rows: CaseResult[], header = true) {
  const cols = ["case", "req/s", "p50 ms", "p99 ms", "errors/non-2xx", "cpu ms/req", "load"];
  const widths = [50, 7, 8, 8, 15, 11, 6];
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" ");
  if (header) console.info(line(cols));
  for (const r of rows) {
    console.info(
      line([
        r.name,
        String(r.requests_per_sec),
        r.p50_ms.toFixed(1),
        r.p99_ms.toFixed(1),
        `${r.errors}/${r.non_2xx}`,
        Number.isNaN(r.server_cpu_ms_per_req) ? "-" : r.server_cpu_ms_per_req.toFixed(2),
        r.load_before.split(" ")[0],
      ]),
    );
    if (r.errors > 0) console.info(`    failed with: ${JSON.stringify(r.error_codes)}`);
  }
}

const wanted = (key: string) => !ONLY || ONLY.has(key);

async function mainCases(server: Server, fixture: Fixture) {
  const { base } = server;
  const token = await apiLogin(base, fixture.reader.email);
  const cookie = await pageLogin(base, fixture.reader.email);
  const bearer = { ...CLIENT_HEADERS, Authorization: `Bearer ${token}` };
  const browser = { ...CLIENT_HEADERS, Cookie: cookie, Accept: "text/html" };
  const detailPaths = fixture.openUuids.slice(0, 2000);
  const results: CaseResult[] = [];
  let burst: Record<string, unknown> | null = null;

  if (wanted("healthz")) {
    // The floor: remix-serve, Remix's routing and one trivial query, no session.
    results.push(await measure("GET /healthz (reference)", { url: `${base}/healthz`, headers: CLIENT_HEADERS }));
  }
  if (wanted("list")) {
    results.push(await measure("GET /api/opportunities", { url: `${base}/api/opportunities`, headers: bearer }));
  }
  if (wanted("burst")) {
    // The list under a burst of logins (bcrypt at BCRYPT_COST): the baseline is measured right
    // before, so both runs see the same machine.
    const listOptions = { url: `${base}/api/opportunities`, headers: bearer };
    const baseline = await measure("GET /api/opportunities (burst baseline)", listOptions);
    const loginBody = JSON.stringify({ email: fixture.loginEmail, password: PASSWORD });
    const before = load();
    const cpu = cpuSeconds(serverPid);
    const [list, logins] = await Promise.all([
      cannon({ ...listOptions, duration: DURATION }),
      loginBurst(`${base}/api/login`, loginBody, DURATION),
    ]);
    const burstCpu = cpuSeconds(serverPid) - cpu;
    const withBurst = summarise(`GET /api/opportunities + ${LOGINS_PER_SECOND} logins/s`, list, before, burstCpu);
    const loginRow = summarise(`  POST /api/login (${LOGINS_PER_SECOND}/s, bcrypt ${BCRYPT_COST})`, logins, before);
    print([withBurst, loginRow], false);
    results.push(withBurst, loginRow);
    burst = {
      p99_without_ms: baseline.p99_ms,
      p99_with_ms: withBurst.p99_ms,
      ratio: withBurst.p99_ms / baseline.p99_ms,
      login_p50_ms: loginRow.p50_ms,
      login_p99_ms: loginRow.p99_ms,
      logins: loginRow.requests,
    };
  }
  if (wanted("search")) {
    results.push(
      await measure("GET /api/opportunities?q+category+location", {
        url: `${base}/api/opportunities${query(SEARCH)}`,
        headers: bearer,
      }),
    );
  }
  if (wanted("services")) {
    // /servicos' JSON twin beside the opportunities' list and search (the same reader).
    results.push(
      await measure("GET /api/services", { url: `${base}/api/services`, headers: bearer }),
      await measure("GET /api/services?q", { url: `${base}/api/services${query(SERVICE_SEARCH)}`, headers: bearer }),
      await measure("GET /api/services?category+price+sort", {
        url: `${base}/api/services${query(SERVICE_FILTERS)}`,
        headers: bearer,
      }),
    );
  }
  if (wanted("detail")) {
    results.push(
      await measure("GET /api/opportunities/:uuid", {
        url: `${base}/api/opportunities`,
        requests: rotating(
          detailPaths.map((u) => `/api/opportunities/${u}`),
          bearer,
        ),
      }),
    );
  }
  if (wanted("mine")) {
    results.push(
      await measure(`GET /api/my-applications (${fixture.reader.applications} apps)`, {
        url: `${base}/api/my-applications`,
        headers: bearer,
      }),
    );
  }
  if (wanted("page")) {
    results.push(
      await measure("page /opportunities?q+category+location", {
        url: `${base}/opportunities${query(SEARCH)}`,
        headers: browser,
      }),
    );
  }
  if (wanted("page-detail")) {
    results.push(
      await measure("page /opportunities/:uuid", {
        url: `${base}/opportunities`,
        requests: rotating(
          detailPaths.map((u) => `/opportunities/${u}`),
          browser,
        ),
      }),
    );
  }
  if (wanted("public")) {
    // A visitor's public opportunity page (no session, the canonical address: no redirect), and
    // the first sitemap page of opportunities (up to 50 000 addresses).
    const paths: string[] = [];
    for (const uuid of detailPaths.slice(0, 300)) {
      const res = await fetch(`${base}/api/public/opportunities/${uuid}`, { headers: CLIENT_HEADERS });
      if (res.ok) paths.push(((await res.json()) as { data: { path: string } }).data.path);
    }
    results.push(
      await measure(`page /vagas/:slug (visitor, ${paths.length} pages)`, {
        url: `${base}/vagas`,
        requests: rotating(paths, { ...CLIENT_HEADERS, Accept: "text/html" }),
        connections: 10,
      }),
    );
    // A sitemap page is megabytes: timed one request at a time (median of 7), not under load.
    const times: number[] = [];
    let urls = 0;
    let bytes = 0;
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      const xml = await (await fetch(`${base}/sitemap/opportunities-1.xml`, { headers: CLIENT_HEADERS })).text();
      times.push(performance.now() - t0);
      urls = (xml.match(/<url>/g) ?? []).length;
      bytes = Buffer.byteLength(xml);
    }
    times.sort((a, b) => a - b);
    log(
      `GET /sitemap/opportunities-1.xml: ${urls} URLs, ${(bytes / 1e6).toFixed(1)} MB, median ${times[3]!.toFixed(0)} ms (min ${times[0]!.toFixed(0)}, max ${times[6]!.toFixed(0)}), load ${load()}`,
    );
    // Memory: eight pages asked at once, the server's resident memory sampled every 10 ms.
    const before = residentMb(serverPid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, residentMb(serverPid))), 10);
    await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${base}/sitemap/opportunities-1.xml`, { headers: CLIENT_HEADERS }).then((r) => r.arrayBuffer()),
      ),
    );
    clearInterval(sampler);
    log(
      `8 sitemap pages at once: server resident memory ${before.toFixed(0)} MB before, peak ${peak.toFixed(0)} MB (+${(peak - before).toFixed(0)} MB)`,
    );
  }
  if (wanted("apply")) {
    // Every request is a new application: the i-th goes to the i-th opportunity of a shuffled
    // sample, by one of the writers in turn (a writer never applies twice to one opportunity).
    let i = 0;
    const body = JSON.stringify({
      cover_letter: "Tenho experiência com projetos parecidos e posso começar nesta semana.",
      price_cents: 250_000,
      delivery_days: 12,
    });
    results.push(
      await measure("POST /api/opportunities/:uuid/applications", {
        url: `${base}/api/opportunities`,
        method: "POST",
        requests: [
          {
            setupRequest: (req) => {
              const n = i++;
              const uuid = fixture.openUuids[n % fixture.openUuids.length];
              const writer = fixture.writerTokens[(n + Math.floor(n / fixture.openUuids.length)) % WRITERS];
              return {
                ...req,
                method: "POST",
                path: `/api/opportunities/${uuid}/applications`,
                headers: {
                  ...CLIENT_HEADERS,
                  "Content-Type": "application/json",
                  Authorization: `Bearer ${writer}`,
                },
                body,
              };
            },
          },
        ],
      }),
    );
  }
  if (wanted("admin")) {
    // The operator's overview: the marketplace's figures over 90 days (three statements whatever
    // the data, kept a minute per process) and the live queues, by the API and as the page.
    const operator = { ...CLIENT_HEADERS, Authorization: `Bearer ${fixture.operatorToken}` };
    results.push(
      await measure("GET /api/admin/metrics?days=90", { url: `${base}/api/admin/metrics?days=90`, headers: operator }),
      await measure("page /admin?days=90", {
        url: `${base}/admin?days=90`,
        headers: { ...operator, Accept: "text/html" },
      }),
    );
  }
  if (wanted("parts")) manyParts = await manyPartsCase(base, token);
  return { results, burst };
}

/** The figures of the case "parts", printed and written apart (its posts are refusals by design). */
let manyParts: Record<string, unknown> | null = null;

/**
 * /healthz while signed-in clients post message bodies of ~400 000 tiny parts (22 MB each), the
 * shape that used to hold a server process for seconds: the form reader must refuse them as they
 * stream in, so the other requests of the process keep their latency. Figures only; the budget
 * (p99 under 100 ms) is printed with the others, never asserted in the test suite.
 */
async function manyPartsCase(base: string, token: string) {
  const mine = await fetch(`${base}/api/my-applications?per_page=1`, {
    headers: { ...CLIENT_HEADERS, Authorization: `Bearer ${token}` },
  });
  const application = ((await mine.json()) as { data: { id: string }[] }).data[0]?.id;
  if (!application) throw new Error("the reader has no application to post messages to");
  const part = '--xx\r\nContent-Disposition: form-data; name="f"\r\n\r\nx\r\n';
  const body = Buffer.from(part.repeat(Math.ceil((22 * 1024 * 1024) / part.length)) + "--xx--\r\n");
  const parts = Math.ceil((22 * 1024 * 1024) / part.length);

  /** Sequential /healthz requests for `seconds`; their latencies in ms. */
  const probe = async (seconds: number) => {
    const times: number[] = [];
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      const t0 = performance.now();
      const res = await fetch(`${base}/healthz`, { headers: CLIENT_HEADERS });
      await res.arrayBuffer();
      times.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
    return times.sort((a, b) => a - b);
  };
  const pct = (sorted: number[], p: number) =>
    Number(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!.toFixed(1));
  const figures = (sorted: number[]) => ({
    requests: sorted.length,
    p50_ms: pct(sorted, 50),
    p99_ms: pct(sorted, 99),
    max_ms: Number(sorted[sorted.length - 1]!.toFixed(1)),
  });

  const quiet = figures(await probe(Math.min(DURATION, 5)));
  // The posting clients run in a process of their own, so that the probe's latency is the
  // server's and not this process's, busy pushing 4 × 22 MB.
  const bodyFile = join(os.tmpdir(), `freela-bench-parts-${process.pid}.bin`);
  writeFileSync(bodyFile, body);
  const posterScript = `
    const { request } = require("node:http");
    const body = require("node:fs").readFileSync(process.env.BODY);
    const statuses = { ms: 0 };
    let sending = true;
    process.on("message", () => (sending = false));
    const post = () => new Promise((done) => {
      const t0 = performance.now();
      const req = request(process.env.URL, { method: "POST", agent: false, headers: { Authorization: "Bearer " + process.env.TOKEN, "Content-Type": "multipart/form-data; boundary=xx", "Content-Length": body.length } }, (res) => {
        res.resume();
        res.on("end", () => { statuses[res.statusCode] = (statuses[res.statusCode] || 0) + 1; statuses.ms += performance.now() - t0; req.destroy(); done(); });
      });
      req.on("error", () => { statuses.cut = (statuses.cut || 0) + 1; statuses.ms += performance.now() - t0; done(); });
      req.end(body);
    });
    Promise.all(Array.from({ length: 4 }, async () => { while (sending) await post(); })).then(() => process.send(statuses, () => process.exit(0)));
  `;
  const posters = spawn(process.execPath, ["-e", posterScript], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...process.env, BODY: bodyFile, URL: `${base}/api/applications/${application}/messages`, TOKEN: token },
  });
  const reported = new Promise<Record<string, number>>((done) =>
    posters.once("message", (m) => done(m as Record<string, number>)),
  );
  await new Promise((r) => setTimeout(r, 500));
  const loaded = figures(await probe(DURATION));
  posters.send("stop");
  const statuses = await reported;
  rmSync(bodyFile, { force: true });
  const posts = Object.entries(statuses)
    .filter(([k]) => k !== "ms")
    .reduce((n, [, v]) => n + v, 0);
  const result = {
    body_mb: Number((body.length / 1024 / 1024).toFixed(1)),
    parts,
    posters: 4,
    healthz_quiet: quiet,
    healthz_while_posting: loaded,
    posts,
    post_answers: Object.fromEntries(Object.entries(statuses).filter(([k]) => k !== "ms")),
    post_mean_ms: Math.round((statuses.ms ?? 0) / Math.max(1, posts)),
  };
  console.info(
    `/healthz while 4 clients post ${result.body_mb} MB bodies of ${parts} parts: p50 ${loaded.p50_ms} ms, p99 ${loaded.p99_ms} ms, max ${loaded.max_ms} ms (${loaded.requests} requests; quiet: p50 ${quiet.p50_ms}, p99 ${quiet.p99_ms} ms); posts ${JSON.stringify(result.post_answers)}, ${result.post_mean_ms} ms each`,
  );
  return result;
}

// ---------------------------------------------------------------------------------------------
// Budgets

function verdicts(results: CaseResult[], burst: Record<string, unknown> | null) {
  const find = (prefix: string) => results.find((r) => r.name.startsWith(prefix));
  const out: { budget: string; holds: boolean; measured: string }[] = [];
  const list = results.find((r) => r.name === "GET /api/opportunities");
  if (list) {
    out.push({
      budget: `JSON list >= ${BUDGETS.listRps} req/s, p99 <= ${BUDGETS.listP99} ms`,
      holds: list.requests_per_sec >= BUDGETS.listRps && list.p99_ms <= BUDGETS.listP99,
      measured: `${list.requests_per_sec} req/s, p99 ${list.p99_ms} ms`,
    });
  }
  const page = find("page /opportunities?");
  if (page) {
    out.push({
      budget: `list page >= ${BUDGETS.pageRps} req/s, p99 <= ${BUDGETS.pageP99} ms`,
      holds: page.requests_per_sec >= BUDGETS.pageRps && page.p99_ms <= BUDGETS.pageP99,
      measured: `${page.requests_per_sec} req/s, p99 ${page.p99_ms} ms`,
    });
  }
  if (manyParts) {
    const loaded = manyParts.healthz_while_posting as { p99_ms: number; max_ms: number };
    out.push({
      budget: "/healthz p99 < 100 ms while many-part bodies arrive",
      holds: loaded.p99_ms < 100,
      measured: `p99 ${loaded.p99_ms} ms, max ${loaded.max_ms} ms`,
    });
  }
  // The catalogue's budget is the opportunities' beside it: its list and its search serve at
  // least SERVICES_RATIO of their req/s (both cases in the run: `--only list,search,services`).
  for (const [services, opportunities] of [
    ["GET /api/services", "GET /api/opportunities"],
    ["GET /api/services?q", "GET /api/opportunities?q"],
  ] as const) {
    const s = results.find((r) => r.name === services);
    // The list by its whole name (the burst's baseline starts the same), the search by its start.
    const o = opportunities.endsWith("?q") ? find(opportunities) : results.find((r) => r.name === opportunities);
    if (!s || !o) continue;
    const ratio = s.requests_per_sec / o.requests_per_sec;
    out.push({
      budget: `${services} >= ${BUDGETS.servicesRatio} x ${o.name}`,
      holds: ratio >= BUDGETS.servicesRatio,
      measured: `${s.requests_per_sec} / ${o.requests_per_sec} req/s = ${ratio.toFixed(2)}`,
    });
  }
  const failures = results.reduce((n, r) => n + r.errors + r.non_2xx, 0);
  out.push({ budget: "zero errors and non-2xx", holds: failures === 0, measured: String(failures) });
  if (burst) {
    const ratio = burst.ratio as number;
    out.push({
      budget: `login burst raises list p99 < ${BUDGETS.burstRatio}x`,
      holds: ratio < BUDGETS.burstRatio,
      measured: `${burst.p99_without_ms} -> ${burst.p99_with_ms} ms (${ratio.toFixed(2)}x)`,
    });
  }
  return out;
}

function printVerdicts(list: { budget: string; holds: boolean; measured: string }[]) {
  for (const v of list) console.info(`${v.holds ? "OK  " : "MISS"} ${v.budget}: ${v.measured}`);
}

function writeResults(file: string, data: unknown) {
  mkdirSync(join(root, "bench/results"), { recursive: true });
  writeFileSync(join(root, "bench/results", file), JSON.stringify(data, null, 2) + "\n");
  log(`wrote bench/results/${file}`);
}

// ---------------------------------------------------------------------------------------------
// Main

function ensureBuild() {
  if (existsSync(join(root, "build/index.js"))) return;
  log("no build found: running `remix build`");
  run(process.execPath, [join(root, "node_modules/@remix-run/dev/dist/cli.js"), "build"], process.env);
}

/**
 * --database postgres: a throwaway PostgreSQL server (as the tests start it) holding a copy of
 * the prepared SQLite database, made by npm run db:copy.
 */
async function postgresCopy(fixture: Fixture): Promise<{ postgres: Postgres; url: string }> {
  const postgres = await startPostgres();
  await postgres.createDatabase("freela");
  const url = postgres.url("freela");
  log(`copying the data into PostgreSQL (port ${postgres.port})`);
  const seconds = run(
    process.execPath,
    [join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/copy-to-postgres.ts", fixture.dbPath],
    {
      ...process.env,
      NODE_ENV: "production",
      SESSION_SECRET: randomBytes(32).toString("hex"),
      DATABASE_URL: url,
      UPLOADS_DIR: join(fixture.dir, "uploads"),
    },
  );
  log(`copied in ${seconds.toFixed(1)} s`);
  return { postgres, url };
}

async function withServer<T>(
  opportunities: number,
  source: string | undefined,
  body: (s: Server, f: Fixture) => Promise<T>,
) {
  const fixture = prepareDatabase(opportunities, source);
  const copy = POSTGRES ? await postgresCopy(fixture) : undefined;
  const server = await startServer(fixture, copy?.url);
  try {
    return { fixture, result: await body(server, fixture) };
  } finally {
    await stopServer(server);
    await copy?.postgres.destroy();
    if (args.keep) log(`kept ${fixture.dir}`);
    else rmSync(fixture.dir, { recursive: true, force: true });
  }
}

/**
 * --scale: the list and the search at 10 000 and at 1 000 000 opportunities. Both servers run
 * side by side and the runs alternate between them, three rounds (one with --quick); each
 * case keeps its median p99, so a passing hiccup of the machine weighs on neither size alone.
 */
async function scale(facts: ReturnType<typeof machine>) {
  const sizes = [10_000, 1_000_000];
  const rounds = args.quick ? 1 : 3;
  const fixtures: Fixture[] = [];
  const servers: Server[] = [];
  try {
    for (const size of sizes) fixtures.push(prepareDatabase(size));
    for (const fixture of fixtures) servers.push(await startServer(fixture));
    const targets = await Promise.all(
      servers.map(async (server, i) => ({
        size: sizes[i],
        server,
        headers: {
          ...CLIENT_HEADERS,
          Authorization: `Bearer ${await apiLogin(server.base, fixtures[i].reader.email)}`,
        },
      })),
    );
    const runs = new Map<string, CaseResult[]>();
    for (let round = 0; round < rounds; round++) {
      for (const kind of ["list", "search"] as const) {
        for (const target of targets) {
          serverPid = target.server.child.pid;
          const name = `${kind} @ ${target.size.toLocaleString("en")}`;
          const path = `/api/opportunities${kind === "search" ? query(SEARCH) : ""}`;
          const result = await measure(name, { url: `${target.server.base}${path}`, headers: target.headers });
          runs.set(name, [...(runs.get(name) ?? []), result]);
        }
      }
    }
    const median = (name: string) => {
      const list = [...runs.get(name)!].sort((x, y) => x.p99_ms - y.p99_ms);
      return list[Math.floor(list.length / 2)];
    };
    const rows = ["list", "search"].flatMap((kind) =>
      sizes.map((size) => median(`${kind} @ ${size.toLocaleString("en")}`)),
    );
    const ratios = {
      list_p99: rows[1].p99_ms / rows[0].p99_ms,
      search_p99: rows[3].p99_ms / rows[2].p99_ms,
    };
    console.info(`\nmedian of ${rounds} round(s):`);
    print(rows);
    const checks = (["list_p99", "search_p99"] as const).map((k) => ({
      budget: `${k.replace("_p99", "")} p99 10k -> 1M < ${BUDGETS.scaleRatio}x`,
      holds: ratios[k] < BUDGETS.scaleRatio,
      measured: `${ratios[k].toFixed(2)}x`,
    }));
    printVerdicts(checks);
    writeResults("scale.json", {
      date: new Date().toISOString(),
      machine: facts,
      load_after: load(),
      data: fixtures.map((f) => f.counts),
      rounds,
      runs: Object.fromEntries(runs),
      medians: rows,
      ratios,
      checks,
    });
  } finally {
    for (const server of servers) await stopServer(server);
    for (const fixture of fixtures) {
      if (args.keep) log(`kept ${fixture.dir}`);
      else rmSync(fixture.dir, { recursive: true, force: true });
    }
  }
}

/**
 * A page's <body> as it looks without JavaScript: the scripts and module preloads Remix adds (the
 * only things the bare SSR reference leaves out of it) taken out.
 */
async function pageBody(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { headers });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const html = await res.text();
  return html
    .slice(html.indexOf("<body>"), html.indexOf("</body>"))
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>|<link rel="modulepreload"[^>]*>/g, "");
}

/** The worker of a launcher started with one worker process. */
function onlyWorker(launcher: number): number {
  const children = readFileSync(`/proc/${launcher}/task/${launcher}/children`, "utf8")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  if (children.length !== 1) throw new Error(`expected one server process under ${launcher}, found ${children.length}`);
  return Number(children[0]);
}

/**
 * Case "bare": the first page of GET /api/opportunities from bench/bare-server.ts (node:http and
 * better-sqlite3, the same statements and the same JSON body) and from the app with one server
 * process, on the same database file, one after the other; then the CPU time per request of
 * that one process (from /proc: its user + system time over the requests it answered) for
 * /healthz, the JSON list and the list page signed in, and the same for the list page rendered
 * by the bare server (bench/bare-page.tsx: the app's services and components through
 * react-dom/server, no Remix), measured just before the app's page. The launcher's own CPU (it
 * only hands the connections over) is left out. Writes bench/results/bare.json.
 */
async function bareCase(facts: ReturnType<typeof machine>) {
  if (POSTGRES) throw new Error("the case bare runs on SQLite only");
  const fixture = prepareDatabase(OPPORTUNITIES, args.db);
  const servers: Server[] = [];
  try {
    const app = await startServer(fixture, undefined, { workers: "1" });
    servers.push(app);
    const bare = await startServer(fixture, undefined, { script: "bench/bare-server.ts" });
    servers.push(bare);
    const token = await apiLogin(app.base, fixture.reader.email);
    const cookie = await pageLogin(app.base, fixture.reader.email);
    const bearer = { ...CLIENT_HEADERS, Authorization: `Bearer ${token}` };
    const browser = { ...CLIENT_HEADERS, Cookie: cookie, Accept: "text/html" };

    // Both do the same work: the same body, byte for byte.
    const bodyOf = async (base: string) => {
      const res = await fetch(`${base}/api/opportunities`, { headers: bearer });
      if (!res.ok) throw new Error(`${base}/api/opportunities answered ${res.status}`);
      return res.text();
    };
    const [appBody, bareBody] = [await bodyOf(app.base), await bodyOf(bare.base)];
    if (appBody !== bareBody) {
      throw new Error(
        `the bare server's list differs from the app's:\n${bareBody.slice(0, 300)}\n${appBody.slice(0, 300)}`,
      );
    }
    log(`same JSON body from both servers (${Buffer.byteLength(appBody)} bytes)`);
    const barePageHeaders = { ...bearer, Accept: "text/html" };
    const [appPage, barePage] = [
      await pageBody(`${app.base}/opportunities`, browser),
      await pageBody(`${bare.base}/opportunities`, barePageHeaders),
    ];
    if (appPage !== barePage) {
      let at = 0;
      while (appPage[at] === barePage[at]) at++;
      const around = (html: string) => html.slice(Math.max(0, at - 100), at + 200);
      throw new Error(`the bare SSR page differs from the app's at ${at}:\n${around(barePage)}\n${around(appPage)}`);
    }
    log(`same page <body> from both servers, but for the app's scripts (${Buffer.byteLength(appPage)} bytes)`);

    const loadBefore = load();
    const appWorker = onlyWorker(app.child.pid!);
    console.info("");
    print([], true);
    serverPid = bare.child.pid;
    const bareList = await measure("bare node:http: GET /api/opportunities", {
      url: `${bare.base}/api/opportunities`,
      headers: bearer,
    });
    serverPid = appWorker;
    const appList = await measure("app, 1 process: GET /api/opportunities", {
      url: `${app.base}/api/opportunities`,
      headers: bearer,
    });
    const healthz = await measure("app, 1 process: GET /healthz", {
      url: `${app.base}/healthz`,
      headers: CLIENT_HEADERS,
    });
    serverPid = bare.child.pid;
    const bareSsr = await measure("bare SSR (react-dom/server): page /opportunities", {
      url: `${bare.base}/opportunities`,
      headers: barePageHeaders,
    });
    serverPid = appWorker;
    const page = await measure("app, 1 process: page /opportunities", {
      url: `${app.base}/opportunities`,
      headers: browser,
    });
    const loadAfter = load();

    const ratio = appList.requests_per_sec / bareList.requests_per_sec;
    const cpu = (r: CaseResult) => r.server_cpu_ms_per_req;
    const pageRatio = cpu(page) / cpu(bareSsr);
    console.info("");
    console.info(`load average (1, 5, 15 min): ${loadBefore} before, ${loadAfter} after`);
    console.info(
      `JSON list, app (1 process) / bare: ${appList.requests_per_sec} / ${bareList.requests_per_sec} req/s = ${ratio.toFixed(2)} (target >= ${BUDGETS.bareRatio})`,
    );
    console.info(
      `CPU per request, one process: healthz ${cpu(healthz).toFixed(3)} ms (budget <= ${BUDGETS.healthzCpuMs}), ` +
        `list ${cpu(appList).toFixed(3)} ms (<= ${BUDGETS.listCpuMs}), page ${cpu(page).toFixed(3)} ms (<= ${BUDGETS.pageCpuMs}); ` +
        `bare list ${cpu(bareList).toFixed(3)} ms`,
    );
    console.info(
      `list page CPU per request, app (1 process) / bare SSR: ${cpu(page).toFixed(3)} / ${cpu(bareSsr).toFixed(3)} ms = ${pageRatio.toFixed(2)}x (budget <= ${BUDGETS.pageOverBareSsr}x); ` +
        `app minus bare SSR (Express, Remix): ${(cpu(page) - cpu(bareSsr)).toFixed(3)} ms, ${Math.round(100 * (1 - 1 / pageRatio))}% of the page`,
    );
    const failures = [bareList, appList, healthz, bareSsr, page].reduce((n, r) => n + r.errors + r.non_2xx, 0);
    const cpuRatio = cpu(bareList) / cpu(appList);
    console.info(
      `JSON list CPU per request, bare / app (1 process): ${cpu(bareList).toFixed(3)} / ${cpu(appList).toFixed(3)} ms = ${cpuRatio.toFixed(2)} (target >= ${BUDGETS.bareCpuRatio})`,
    );
    const checks = [
      {
        budget: `list CPU bare/app >= ${BUDGETS.bareCpuRatio}`,
        holds: cpuRatio >= BUDGETS.bareCpuRatio,
        measured: cpuRatio.toFixed(2),
      },
      {
        budget: `list app/bare >= ${BUDGETS.bareRatio}`,
        holds: ratio >= BUDGETS.bareRatio,
        measured: ratio.toFixed(2),
      },
      {
        budget: `healthz <= ${BUDGETS.healthzCpuMs} ms CPU/req`,
        holds: cpu(healthz) <= BUDGETS.healthzCpuMs,
        measured: `${cpu(healthz)} ms`,
      },
      {
        budget: `JSON list <= ${BUDGETS.listCpuMs} ms CPU/req`,
        holds: cpu(appList) <= BUDGETS.listCpuMs,
        measured: `${cpu(appList)} ms`,
      },
      {
        budget: `list page <= ${BUDGETS.pageCpuMs} ms CPU/req`,
        holds: cpu(page) <= BUDGETS.pageCpuMs,
        measured: `${cpu(page)} ms`,
      },
      {
        budget: `list page <= ${BUDGETS.pageOverBareSsr}x bare SSR`,
        holds: pageRatio <= BUDGETS.pageOverBareSsr,
        measured: `${pageRatio.toFixed(2)}x`,
      },
      { budget: "zero errors and non-2xx", holds: failures === 0, measured: String(failures) },
    ];
    printVerdicts(checks);
    writeResults("bare.json", {
      date: new Date().toISOString(),
      machine: { ...facts, server_processes: 1 },
      load_before: loadBefore,
      load_after: loadAfter,
      options: { connections: CONNECTIONS, duration_s: DURATION, warmup_s: WARMUP },
      data: fixture.counts,
      list_body_bytes: Buffer.byteLength(appBody),
      list_page_body_bytes: Buffer.byteLength(appPage),
      cases: [bareList, appList, healthz, bareSsr, page],
      ratio_app_over_bare: Number(ratio.toFixed(3)),
      ratio_page_over_bare_ssr: Number(pageRatio.toFixed(3)),
      checks,
    });
  } finally {
    for (const server of servers) await stopServer(server);
    if (args.keep) log(`kept ${fixture.dir}`);
    else rmSync(fixture.dir, { recursive: true, force: true });
  }
}

const MAIN_CASES = [
  "healthz",
  "list",
  "burst",
  "search",
  "detail",
  "mine",
  "page",
  "page-detail",
  "services",
  "public",
  "apply",
  "admin",
  "parts",
];

async function main() {
  ensureBuild();
  const facts = machine();
  log(
    `${facts.nproc} cores, ${facts.cpu}, node ${facts.node}, ${facts.server_processes} server process(es); load ${load()}`,
  );
  log(`${CONNECTIONS} connections, ${DURATION} s per case after ${WARMUP} s of warm-up`);

  if (args.scale) {
    if (POSTGRES) throw new Error("--scale runs on SQLite only");
    await scale(facts);
    return;
  }

  if (wanted("bare")) await bareCase(facts);
  if (ONLY?.has("saved-searches")) {
    const tsx = join(root, "node_modules/tsx/dist/cli.mjs");
    const result = spawnSync(process.execPath, [tsx, "bench/saved-searches.ts"], { cwd: root, stdio: "inherit" });
    if (result.status !== 0) throw new Error("the saved searches' bench failed");
  }
  if (ONLY?.has("hourly")) {
    const tsx = join(root, "node_modules/tsx/dist/cli.mjs");
    const result = spawnSync(process.execPath, [tsx, "bench/hourly.ts"], { cwd: root, stdio: "inherit" });
    if (result.status !== 0) throw new Error("the hourly contracts' bench failed");
  }
  if (ONLY?.has("nfse")) {
    const tsx = join(root, "node_modules/tsx/dist/cli.mjs");
    const result = spawnSync(process.execPath, [tsx, "bench/nfse.ts"], { cwd: root, stdio: "inherit" });
    if (result.status !== 0) throw new Error("the notas fiscais' bench failed");
  }
  if (wanted("events")) {
    if (POSTGRES) throw new Error("the case events runs its own PostgreSQL: leave out --database");
    writeResults("events.json", { date: new Date().toISOString(), machine: facts, ...(await eventsCase()) });
  }
  if (!MAIN_CASES.some(wanted)) return;

  const { fixture, result } = await withServer(OPPORTUNITIES, args.db, (server, f) => mainCases(server, f));
  console.info("");
  print(result.results);
  const checks = verdicts(result.results, result.burst);
  printVerdicts(checks);
  writeResults(POSTGRES ? "latest-postgres.json" : "latest.json", {
    date: new Date().toISOString(),
    database: args.database,
    machine: facts,
    load_after: load(),
    options: { connections: CONNECTIONS, duration_s: DURATION, warmup_s: WARMUP, bcrypt_cost: Number(BCRYPT_COST) },
    data: { ...fixture.counts, seed_seconds: fixture.seedSeconds, reader_applications: fixture.reader.applications },
    search: SEARCH,
    cases: result.results,
    burst: result.burst,
    many_parts: manyParts,
    checks,
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
