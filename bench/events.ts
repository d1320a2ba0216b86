// The live updates' budgets (`npm run bench -- --only events`; figures printed, never asserted):
// 1. latency: two app servers on one throwaway PostgreSQL; RATES messages a second written through
//    the first (POST /api/applications/:id/messages), each heard on a stream of the other side
//    held by the second server, after WARMUP_SECONDS of the same. Latency is from the moment the
//    write is sent to the moment its event arrives; p50/p99 printed, with the writes' own p50/p99;
// 2. memory: one server process (scripts/server.js on SQLite) holding STREAMS open event streams,
//    each of its own account and connection: the process's RSS before and with them open.
import { randomBytes, randomUUID, createHash } from "node:crypto";
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import os from "node:os";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import pg from "pg";
import { termsVersion } from "../app/services/accounts/terms-version";
import { freePort } from "../tests/support/net";
import { startPostgres } from "../tests/support/postgres";
import {
  BUILD,
  migrate,
  productionEnv,
  SERVER_SCRIPT,
  spawnServer,
  stopServer,
  type ServerProcess,
} from "../tests/support/server";
import { validApplication, validOpportunity } from "../tests/support/fixtures";

const STREAMS = Number(process.env.BENCH_STREAMS) || 2_000;
/** Messages a second written through the first server: the budget's rate, then a lighter one. */
const RATES = (process.env.BENCH_EVENTS_RATES ?? "200,50").split(",").map(Number);
const SECONDS = Number(process.env.BENCH_EVENTS_SECONDS) || 10;
/** Seconds of the same writing before each rate's measure, as the other cases' warm-up. */
const WARMUP_SECONDS = 2;
/** Authors of the messages: each writes rate / AUTHORS a second, inside the per-user write limit (2/s). */
const AUTHORS = 200;

const log = (message: string) => console.info(`[bench:events] ${message}`);
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMb(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A production server's environment, with its background jobs off (they would only add noise). */
const baseEnv = (dir: string, port: number): NodeJS.ProcessEnv => ({
  ...productionEnv(port, dir),
  SESSION_SECRET: randomBytes(32).toString("hex"),
  OUTBOX_SECONDS: "0",
  CONTRACT_SCHEDULE_SECONDS: "0",
  DATABASE_PREPARED_STATEMENTS: process.env.DATABASE_PREPARED_STATEMENTS ?? "on",
});

type Account = { id: string; token: string };

/** Accounts with a live session each, written straight into the database (as the bench's writers). */
function accounts(count: number, type: "merchant" | "freelancer", tag: string) {
  const now = new Date().toISOString();
  const expires = new Date(Date.now() + 86_400_000).toISOString();
  const list: (Account & { email: string })[] = [];
  for (let i = 0; i < count; i++) {
    list.push({
      id: randomUUID(),
      token: randomBytes(32).toString("base64url"),
      email: `${tag}-${type}-${i}@freela.dev`,
    });
  }
  const users = list.map((a, i) => [
    a.id,
    a.email,
    "x",
    null,
    `Bench ${type} ${i}`,
    type,
    "",
    "[]",
    null,
    termsVersion(),
    now,
    now,
  ]);
  const sessions = list.map((a) => [sha256(a.token), a.id, expires, now]);
  return { list, users, sessions };
}

const USERS_SQL = `INSERT INTO users (id, email, password_hash, display_name, full_name, account_type, bio, skills, photo_path, terms_version, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const SESSIONS_SQL = "INSERT INTO sessions (id, user_id, expires_at, created_at) VALUES (?, ?, ?, ?)";
const numbered = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

type Stream = { close: () => void; opened: Promise<void>; onEvent: (handler: (ref: string) => void) => void };

/** A GET /api/events stream on a connection of its own. */
function openStream(base: string, token: string): Stream {
  let handler: (ref: string) => void = () => {};
  let buffer = "";
  let ready: () => void;
  let failed: (error: Error) => void;
  const opened = new Promise<void>((resolve, reject) => ((ready = resolve), (failed = reject)));
  const req = request(`${base}/api/events`, { agent: false, headers: { Authorization: `Bearer ${token}` } });
  req.once("response", (res) => {
    if (res.statusCode !== 200) return failed(new Error(`GET /api/events answered ${res.statusCode}`));
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      buffer += chunk;
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (block.startsWith("retry:")) ready();
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data) handler((JSON.parse(data) as { ref: string }).ref);
      }
    });
    res.on("error", () => {});
  });
  req.on("error", (error) => failed(error));
  req.end();
  return { opened, close: () => req.destroy(), onEvent: (h) => (handler = h) };
}

function call(base: string, agent: Agent, method: string, path: string, token: string, body: unknown) {
  const payload = JSON.stringify(body);
  return new Promise<{ status: number; json: { data: { id: string; uuid: string } } }>((resolve, reject) => {
    const req = request(`${base}${path}`, {
      agent,
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(payload),
      },
    });
    req.once("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
    });
    req.once("error", reject);
    req.end(payload);
  });
}

async function memoryCase() {
  const dir = mkdtempSync(join(os.tmpdir(), "freela-bench-events-"));
  const port = await freePort();
  const env = baseEnv(dir, port);
  const base = `http://127.0.0.1:${port}`;
  let server: ServerProcess | null = null;
  try {
    migrate(env);
    const made = accounts(STREAMS + 50, "freelancer", "mem");
    const sqlite = new SQLite(env.DATABASE_PATH!);
    const user = sqlite.prepare(USERS_SQL);
    const session = sqlite.prepare(SESSIONS_SQL);
    sqlite.transaction(() => {
      for (const row of made.users) user.run(...row);
      for (const row of made.sessions) session.run(...row);
    })();
    sqlite.close();
    server = await spawnServer({ env, base, script: [SERVER_SCRIPT, BUILD] });
    const pid = server.child.pid!;
    // Warm-up: the code paths of a stream, opened and closed 50 times.
    const warm = made.list.slice(STREAMS).map((a) => openStream(base, a.token));
    await Promise.all(warm.map((s) => s.opened));
    for (const s of warm) s.close();
    await sleep(1_500);
    const before = rssMb(pid);
    const started = performance.now();
    const open: Stream[] = [];
    for (let i = 0; i < STREAMS; i += 100) {
      const batch = made.list.slice(i, Math.min(i + 100, STREAMS)).map((a) => openStream(base, a.token));
      await Promise.all(batch.map((s) => s.opened));
      open.push(...batch);
    }
    const openedMs = performance.now() - started;
    await sleep(2_000);
    const withStreams = rssMb(pid);
    log(
      `memory: ${STREAMS} open streams in one process (SQLite): RSS ${before.toFixed(1)} MB before, ` +
        `${withStreams.toFixed(1)} MB with them open: +${(withStreams - before).toFixed(1)} MB ` +
        `(${(((withStreams - before) * 1024) / STREAMS).toFixed(1)} KB per stream; opened in ${(openedMs / 1000).toFixed(1)} s; budget < 100 MB)`,
    );
    for (const s of open) s.close();
    return { streams: STREAMS, rss_before_mb: before, rss_open_mb: withStreams, extra_mb: withStreams - before };
  } finally {
    if (server) await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function latencyCase() {
  const postgres = await startPostgres();
  const servers: ServerProcess[] = [];
  const dirs: string[] = [];
  try {
    await postgres.createDatabase("freela");
    const url = postgres.url("freela");
    const bases: string[] = [];
    for (let i = 0; i < 2; i++) {
      const dir = mkdtempSync(join(os.tmpdir(), "freela-bench-events-"));
      dirs.push(dir);
      const port = await freePort();
      const env = { ...baseEnv(dir, port), DATABASE_URL: url, DATABASE_POOL_SIZE: "10" };
      if (i === 0) migrate(env);
      const base = `http://127.0.0.1:${port}`;
      servers.push(await spawnServer({ env, base, script: [SERVER_SCRIPT, BUILD] }));
      bases.push(base);
    }
    const [a, b] = bases as [string, string];
    // AUTHORS freelancers, two per merchant, each with an application to that merchant's opportunity.
    const merchants = accounts(AUTHORS / 2, "merchant", "lat");
    const freelancers = accounts(AUTHORS, "freelancer", "lat");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    for (const row of [...merchants.users, ...freelancers.users]) await client.query(numbered(USERS_SQL), row);
    for (const row of [...merchants.sessions, ...freelancers.sessions]) await client.query(numbered(SESSIONS_SQL), row);
    await client.end();
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const pairs: { merchant: Account; freelancer: Account; application: string }[] = [];
    for (let m = 0; m < merchants.list.length; m++) {
      const merchant = merchants.list[m];
      const opp = await call(a, agent, "POST", "/api/opportunities", merchant.token, validOpportunity);
      if (opp.status !== 201) throw new Error(`opportunity: ${opp.status} ${JSON.stringify(opp.json)}`);
      for (const freelancer of freelancers.list.slice(2 * m, 2 * m + 2)) {
        const app = await call(
          a,
          agent,
          "POST",
          `/api/opportunities/${opp.json.data.uuid}/applications`,
          freelancer.token,
          validApplication,
        );
        if (app.status !== 201) throw new Error(`application: ${app.status} ${JSON.stringify(app.json)}`);
        pairs.push({ merchant, freelancer, application: app.json.data.id });
      }
    }
    // The merchants' streams, on the second server.
    const streams = merchants.list.map((m) => openStream(b, m.token));
    await Promise.all(streams.map((s) => s.opened));
    type Sent = { sent: number; answered?: number; heard?: number };
    const waiting = new Map<string, Sent[]>();
    for (const s of streams)
      s.onEvent((ref) => {
        const entry = waiting.get(ref)?.shift();
        if (entry) entry.heard = performance.now();
      });
    /** Writes `rate` messages a second for `seconds` through server A; resolves once all are answered. */
    async function drive(rate: number, seconds: number) {
      const all: Sent[] = [];
      const failures: number[] = [];
      const total = rate * seconds;
      const inFlight: Promise<void>[] = [];
      const start = performance.now();
      for (let i = 0; i < total; i++) {
        const due = start + (i * 1000) / rate;
        const wait = due - performance.now();
        if (wait > 1) await sleep(wait);
        const pair = pairs[i % pairs.length];
        const entry: Sent = { sent: performance.now() };
        all.push(entry);
        const queue = waiting.get(pair.application) ?? [];
        queue.push(entry);
        waiting.set(pair.application, queue);
        inFlight.push(
          call(a, agent, "POST", `/api/applications/${pair.application}/messages`, pair.freelancer.token, {
            body: `Mensagem ${i}`,
          }).then((r) => {
            if (r.status === 201) entry.answered = performance.now();
            else failures.push(r.status);
          }),
        );
      }
      await Promise.all(inFlight);
      const achieved = total / ((performance.now() - start) / 1000);
      // Events still on their way.
      await sleep(2_000);
      return { all, failures, total, achieved };
    }
    const results = [];
    for (const rate of RATES) {
      log(
        `latency: ${pairs.length} conversations, ${streams.length} streams on server B; writing ${rate}/s for ${SECONDS} s on server A, after ${WARMUP_SECONDS} s of warm-up`,
      );
      // Not measured: the message's code path compiled, connections open, statements prepared.
      await drive(rate, WARMUP_SECONDS);
      const { all, failures, total, achieved } = await drive(rate, SECONDS);
      const heard = all.filter((e) => e.heard !== undefined && e.answered !== undefined);
      const sorted = (values: number[]) => values.sort((x, y) => x - y);
      const endToEnd = sorted(heard.map((e) => e.heard! - e.sent));
      const afterAnswer = sorted(heard.map((e) => e.heard! - e.answered!));
      const writes = sorted(all.filter((e) => e.answered !== undefined).map((e) => e.answered! - e.sent));
      const result = {
        rate,
        messages: total,
        achieved_per_s: achieved,
        failed_writes: failures.length,
        delivered: heard.length,
        p50_ms: percentile(endToEnd, 50),
        p99_ms: percentile(endToEnd, 99),
        after_answer_p50_ms: percentile(afterAnswer, 50),
        after_answer_p99_ms: percentile(afterAnswer, 99),
        write_p50_ms: percentile(writes, 50),
        write_p99_ms: percentile(writes, 99),
      };
      log(
        `latency at ${rate}/s: ${result.delivered}/${total} messages heard on server B (${failures.length} writes refused); ` +
          `${achieved.toFixed(0)} writes/s sent; from the write sent to the event heard p50 ${result.p50_ms.toFixed(1)} ms, ` +
          `p99 ${result.p99_ms.toFixed(1)} ms (budget p99 ≤ 500 ms); of which the write itself p50 ${result.write_p50_ms.toFixed(1)} ms, ` +
          `p99 ${result.write_p99_ms.toFixed(1)} ms; event heard after the write's answer p50 ${result.after_answer_p50_ms.toFixed(1)} ms, ` +
          `p99 ${result.after_answer_p99_ms.toFixed(1)} ms (negative: heard before the writer had its answer)`,
      );
      results.push(result);
    }
    for (const s of streams) s.close();
    agent.destroy();
    const result = results;
    return result;
  } finally {
    for (const server of servers) await stopServer(server);
    await postgres.destroy();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** Both parts; figures printed and returned for bench/results/events.json. */
export async function eventsCase() {
  log(
    `load ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")}`,
  );
  // Latency first: the memory case leaves this process (which also keeps the time) with 2 000
  // closed connections and accounts to collect, whose pauses would count as latency.
  const latency = await latencyCase();
  const memory = await memoryCase();
  return { memory, latency, load_after: os.loadavg() };
}
