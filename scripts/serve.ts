// Serves the production build with one server process per core (`npm start`).
//
// A Node.js process runs JavaScript on one core. node:cluster starts WEB_CONCURRENCY server
// processes (by default one per core; each runs scripts/server.js) that share the port: this
// primary process accepts the connections and hands them out in turn, and restarts a worker
// that dies. What the workers share lives in the database: the data, the sessions and the
// rate-limit counters. On SQLite write transactions begin IMMEDIATE (db/index.ts), so two
// processes racing for one change end as one process would: one wins, the other gets its 409.
//
// SIGTERM or SIGINT: every worker is disconnected (each finishes its requests in flight and
// closes SQLite), then the primary exits; 0 when every worker stopped cleanly.
import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { AggregatorRegistry } from "prom-client";

const SERVE = fileURLToPath(new URL("./server.js", import.meta.url));
const BUILD = process.argv[2] ?? "./build/index.js";
/** The longest a stop may take: the grace of requests in flight, and a margin. */
const STOP_DEADLINE_MS = (Number(process.env.SHUTDOWN_GRACE_MS) || 25_000) + 5_000;
/** How long the workers go on answering, /readyz saying 503, before they close (a load balancer's notice). */
const DRAIN_MS = Number(process.env.SHUTDOWN_DRAIN_MS) || 0;

const log = (message: string) => console.info(`[freela] ${message}`);

function workerCount(): number {
  const raw = process.env.WEB_CONCURRENCY;
  if (raw === undefined || raw === "") return availableParallelism();
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) {
    console.error(`Invalid configuration in the environment:\n  WEB_CONCURRENCY: must be a whole number from 1 to 64`);
    process.exit(1);
  }
  return n;
}

process.env.PORT ||= "3000";
const count = workerCount();
let stopping = false;
let failed = false;
const ready = new WeakSet<Worker>();
/** Workers not yet exited (cluster.workers drops a worker as soon as it disconnects). */
const alive = new Set<Worker>();

/** Node's flags for the workers: this process's own (--cpu-prof, say), less the TypeScript loader. */
function workerFlags(flags: string[]) {
  const kept: string[] = [];
  for (let i = 0; i < flags.length; i++) {
    if (["--import", "--require", "-r", "--loader"].includes(flags[i]) && /tsx/.test(flags[i + 1] ?? "")) i++;
    else if (!/^--(import|require|loader)=.*tsx/.test(flags[i])) kept.push(flags[i]);
  }
  return kept;
}

// The workers run plain JavaScript: the built server needs no TypeScript loader.
cluster.setupPrimary({ exec: SERVE, args: [BUILD], execArgv: workerFlags(process.execArgv) });

function fork() {
  const worker = cluster.fork();
  alive.add(worker);
  worker.once("listening", () => {
    ready.add(worker);
    log(`worker ${worker.process.pid} serving`);
  });
}

// Live updates on SQLite (app/services/platform/events.server.ts): a worker that committed
// events names their users here, and every other worker wakes those users' open streams.
// /metrics (app/routes/metrics.ts): the worker that got the scrape asks here, and this process
// adds up every worker's numbers (prom-client's AggregatorRegistry asks each of them).
const aggregator = new AggregatorRegistry();
cluster.on("message", (from, message: { type?: unknown; id?: unknown }) => {
  if (message?.type !== "freela:metrics") return;
  const answer = (body: { text?: string; error?: string }) => {
    if (from.isConnected()) from.send({ type: "freela:metrics", id: message.id, ...body }, () => {});
  };
  aggregator.clusterMetrics().then(
    (text) => answer({ text }),
    (error: Error) => answer({ error: error.message }),
  );
});

cluster.on("message", (from, message: { type?: unknown }) => {
  if (message?.type !== "freela:events") return;
  for (const worker of alive) if (worker !== from && worker.isConnected()) worker.send(message, () => {});
});

cluster.on("exit", (worker, code, signal) => {
  alive.delete(worker);
  const how = signal ?? `code ${code}`;
  if (stopping) {
    if (code !== 0) failed = true;
    if (alive.size === 0) {
      log(`stopped${failed ? " (a worker did not stop cleanly)" : ""}`);
      process.exit(failed ? 1 : 0);
    }
    return;
  }
  if (!ready.has(worker)) {
    // It died before serving anything (a bad configuration, a missing build): so will the next.
    console.error(`[freela] worker ${worker.process.pid} exited (${how}) before it could serve; stopping`);
    failed = true;
    stop("SIGTERM");
    return;
  }
  console.error(`[freela] worker ${worker.process.pid} exited (${how}); starting another`);
  fork();
});

function stop(signal: NodeJS.Signals) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping ${alive.size} worker(s)`);
  if (alive.size === 0) process.exit(failed ? 1 : 0);
  // First /readyz says 503 in every worker; they go on answering for DRAIN_MS.
  for (const worker of alive) if (worker.isConnected()) worker.send({ type: "freela:draining" }, () => {});
  if (DRAIN_MS > 0) setTimeout(() => disconnectAll(signal), DRAIN_MS);
  else disconnectAll(signal);
}

function disconnectAll(signal: NodeJS.Signals) {
  // Each worker closes its server (idle connections at once, busy ones once answered) and its
  // channel to this process; with nothing left to do it exits, closing SQLite on the way.
  // Told first, so a worker ends its long-lived answers (open event streams) at once: its
  // server's close would otherwise wait for them to the end of the grace.
  for (const worker of alive) {
    if (worker.isConnected()) worker.send({ type: "freela:stopping" }, () => {});
    worker.disconnect();
  }
  setTimeout(() => {
    console.error(`[freela] workers still running ${STOP_DEADLINE_MS} ms after ${signal}; killing them`);
    for (const worker of alive) worker.process.kill("SIGKILL");
    process.exit(1);
  }, STOP_DEADLINE_MS).unref();
}

for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => stop(signal));

log(`serving ${BUILD} on port ${process.env.PORT} with ${count} process(es)`);
for (let i = 0; i < count; i++) fork();
