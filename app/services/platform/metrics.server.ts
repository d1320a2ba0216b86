import cluster from "node:cluster";
import { timingSafeEqual, createHash } from "node:crypto";
import client from "prom-client";
import { sql } from "kysely";
import { db } from "../../../db";
import { openStreams } from "./events.server";

// What /metrics shows a Prometheus server (prom-client, decision 061). Labels come from closed
// sets only (route ids of the build, methods, status classes, limiter names, outbox kinds):
// never a URL, an id or a user. Under `npm start` each worker keeps its own numbers and the
// launcher (scripts/serve.ts) adds them up for the scrape (prom-client's AggregatorRegistry).

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** `read`, run at most once a second: a scrape's gauges share one query. */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    if (!last || Date.now() - last.at > 1_000) last = { at: Date.now(), value: read() };
    return last.value;
  };
}

/** The outbox by kind (depth and oldest age). */
const outboxByKind = oncePerScrape(() =>
  db
    .selectFrom("outbox")
    .select((eb) => ["kind", eb.fn.countAll<number>().as("depth"), eb.fn.min<string>("created_at").as("oldest")])
    .where("status", "in", ["pending", "sending"])
    .groupBy("kind")
    .execute(),
);

/** Payments waiting, by state: one statement over the three tables. */
const paymentsPending = oncePerScrape(async () => {
  const count = (table: "pix_charges" | "payouts" | "refunds", status: string, state: string) =>
    db
      .selectFrom(table)
      .select((eb) => [sql<string>`${state}`.as("state"), eb.fn.countAll<number>().as("count")])
      .where("status", "=", status as never);
  return count("pix_charges", "pending", "charge_pending")
    .unionAll(count("payouts", "requested", "payout_requested"))
    .unionAll(count("refunds", "due", "refund_due"))
    .execute();
});

/**
 * A gauge read from the database at each scrape, one series per value of `label`. Every worker
 * reads the same tables, so the launcher keeps one worker's answer (max), not their sum.
 */
function tableGauge(name: string, help: string, label: string, read: () => Promise<[string, number][]>) {
  new client.Gauge({
    name,
    help,
    labelNames: [label],
    aggregator: "max",
    async collect() {
      this.reset();
      for (const [value, n] of await read()) this.set({ [label]: value }, n);
    },
  });
}

function createMetrics() {
  client.collectDefaultMetrics();
  const metrics = {
    httpDuration: new client.Histogram({
      name: "freela_http_request_duration_seconds",
      help: "Time to answer an HTTP request, by route id, method and status class",
      labelNames: ["route", "method", "status_class"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
    inFlight: new client.Gauge({ name: "freela_http_requests_in_flight", help: "HTTP requests being answered" }),
    loginFailures: new client.Counter({
      name: "freela_login_failures_total",
      help: "Sign-ins refused for a wrong e-mail or password",
    }),
    jobRuns: new client.Counter({
      name: "freela_job_runs_total",
      help: "Runs of the server's periodic jobs, by job",
      labelNames: ["job"] as const,
    }),
    jobFailures: new client.Counter({
      name: "freela_job_failures_total",
      help: "Runs of the server's periodic jobs that failed, by job",
      labelNames: ["job"] as const,
    }),
    emails: new client.Counter({
      name: "freela_emails_total",
      help: "E-mails by outcome: sent, retried (an attempt failed), failed (given up), suppressed",
      labelNames: ["outcome"] as const,
    }),
    rateLimited: new client.Counter({
      name: "freela_rate_limit_refusals_total",
      help: "Requests refused with 429 by a limit, by limit",
      labelNames: ["limit"] as const,
    }),
  };
  tableGauge(
    "freela_outbox_depth",
    "E-mails waiting in the outbox (pending or being sent), by kind",
    "kind",
    async () => (await outboxByKind()).map((row) => [row.kind, Number(row.depth)]),
  );
  tableGauge(
    "freela_outbox_oldest_age_seconds",
    "Age of the oldest e-mail waiting in the outbox, by kind",
    "kind",
    async () => {
      const now = Date.now();
      return (await outboxByKind())
        .filter((row) => row.oldest)
        .map((row) => [row.kind, Math.max(0, (now - Date.parse(row.oldest)) / 1000)]);
    },
  );
  new client.Gauge({
    name: "freela_event_streams_open",
    help: "Live-update streams (GET /api/events) open",
    collect() {
      this.set(openStreams());
    },
  });
  tableGauge(
    "freela_payments_pending",
    "Payments waiting on someone: Pix charges not yet paid, payouts requested, refunds due",
    "state",
    async () => (await paymentsPending()).map((row) => [row.state, Number(row.count)]),
  );
  // A worker of `npm start` answers the launcher's requests for its numbers.
  if (cluster.isWorker) new client.AggregatorRegistry();
  return metrics;
}

/** remix dev loads the build again after each change: the metrics are registered once per process. */
const kept = globalThis as unknown as { __freelaMetrics?: ReturnType<typeof createMetrics> };
export const metrics = (kept.__freelaMetrics ??= createMetrics());

/** One answered request: its route id, method and status class (never its URL or its user). */
export function observeRequest(route: string, method: string | undefined, statusClass: string, seconds: number) {
  metrics.httpDuration.observe(
    { route, method: method && METHODS.has(method) ? method : "other", status_class: statusClass },
    seconds,
  );
}

/** The text of /metrics: this process's numbers, or under `npm start` the whole server's. */
export async function metricsText(): Promise<string> {
  if (!cluster.isWorker) return client.register.metrics();
  return askLauncher();
}

export const metricsContentType = client.register.contentType;

let asked = 0;
const waiting = new Map<number, (answer: { text?: string; error?: string }) => void>();
if (cluster.isWorker) {
  process.on("message", (message: { type?: unknown; id?: number; text?: string; error?: string }) => {
    if (message?.type !== "freela:metrics" || typeof message.id !== "number") return;
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
}

/** The launcher adds up every worker's numbers (scripts/serve.ts). */
function askLauncher(): Promise<string> {
  const id = ++asked;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error("the launcher did not answer for the metrics"));
    }, 10_000);
    waiting.set(id, (answer) => {
      clearTimeout(timer);
      if (answer.text !== undefined) resolve(answer.text);
      else reject(new Error(answer.error ?? "no metrics"));
    });
    process.send!({ type: "freela:metrics", id });
  });
}

/** Whether `header` is `Bearer <token>` for the configured token (compared in constant time). */
export function metricsAuthorized(header: string | null, token: string): boolean {
  if (!header?.startsWith("Bearer ")) return false;
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(header.slice(7).trim()), digest(token));
}
