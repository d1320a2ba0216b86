// Starts the production server as a real process (scripts/server.js, or scripts/serve.ts as
// `npm start` does), waits until it answers, and stops it: shared by the crash, hostile and
// multinode tests (tests/server/crash/server.ts) and the bench (bench/run.ts, bench/events.ts).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./net";

export { freePort };

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BUILD = join(ROOT, "build/index.js");
/** One server process on the build. */
export const SERVER_SCRIPT = join(ROOT, "scripts/server.js");
/** The launcher of `npm start`: WEB_CONCURRENCY workers, each a server process. */
export const LAUNCHER = join(ROOT, "scripts/serve.ts");

/**
 * The environment of a production server on `port` keeping its data in `dir`: quick password
 * hashes, no demo data, accounts that write at once (no e-mail confirmation, no new-account limits) and an operator
 * without the second factor, and APP_URL (production refuses to start without it).
 */
export function productionEnv(port: number, dir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: "production",
    PORT: String(port),
    DATABASE_PATH: join(dir, "freela.db"),
    UPLOADS_DIR: join(dir, "uploads"),
    SESSION_SECRET: "server-test-secret-0123456789abcdef0123456789",
    BCRYPT_COST: "4",
    SEED_DEMO: "0",
    EMAIL_VERIFICATION: "off",
    OPERATOR_TWO_FACTOR: "off",
    NEW_ACCOUNT_HOURS: "0",
    APP_URL: `http://127.0.0.1:${port}`,
  };
}

/** Runs a script of the repository (scripts/…) with tsx in `env`: its exit code and output. */
export function runScript(script: string, env: NodeJS.ProcessEnv, args: string[] = []) {
  const result = spawnSync(join(ROOT, "node_modules/.bin/tsx"), [join(ROOT, script), ...args], {
    cwd: ROOT,
    env,
    encoding: "utf8",
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

function runMigrate(env: NodeJS.ProcessEnv) {
  const result = runScript("scripts/migrate.ts", env);
  if (result.code !== 0) throw new Error(`migrate failed: ${result.output}`);
}

/** SQLite files migrated once per process, one per environment (paths and port aside). */
const templates = new Map<string, string>();

/**
 * Brings the database of `env` to the latest migration (throws with the script's output). A new
 * SQLite file without the demo data is a copy of one migrated once for the same settings: the
 * migration script's start-up is most of a server test's set-up. PostgreSQL, an existing file and
 * the demo data (which writes photos next to the database) run the script itself.
 */
export function migrate(env: NodeJS.ProcessEnv) {
  const file = env.DATABASE_PATH;
  if (env.DATABASE_URL || env.SEED_DEMO === "1" || !file || existsSync(file)) return runMigrate(env);
  const { DATABASE_PATH: _file, UPLOADS_DIR: _uploads, PORT: _port, APP_URL: _url, ...settings } = env;
  const key = JSON.stringify(Object.entries(settings).sort(([a], [b]) => a.localeCompare(b)));
  let template = templates.get(key);
  if (!template) {
    const dir = mkdtempSync(join(tmpdir(), "freela-migrated-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    template = join(dir, "freela.db");
    runMigrate({ ...env, DATABASE_PATH: template, UPLOADS_DIR: join(dir, "uploads") });
    templates.set(key, template);
  }
  mkdirSync(dirname(file), { recursive: true });
  copyFileSync(template, file);
  if (existsSync(`${template}-wal`)) copyFileSync(`${template}-wal`, `${file}-wal`);
}

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export type ServerProcess = {
  child: ChildProcess;
  /** What the process printed (the last `keepChunks` pieces of it), for diagnosis and log assertions. */
  log: () => string;
  exited: Promise<Exit>;
};

export type SpawnServerOptions = {
  /** The whole environment of the process (PORT, DATABASE_PATH, UPLOADS_DIR, SESSION_SECRET…). */
  env: NodeJS.ProcessEnv;
  /** Where it listens, e.g. http://127.0.0.1:3000: readiness is asked of `${base}/healthz`. */
  base: string;
  /** The script and its arguments; by default one server process on the build. */
  script?: string[];
  /** Node's own flags, before the script (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** Any answer of /healthz means ready, not only a 2xx (a server without /healthz). */
  anyAnswer?: boolean;
  /** Milliseconds between readiness polls. */
  pollMs?: number;
  /** Gives up (and kills the process) after this many milliseconds; none by default. */
  timeoutMs?: number;
  /** Keeps only the last so many pieces of output (a long run's log stays small). */
  keepChunks?: number;
};

/** Spawns the server with node and resolves once /healthz answers; throws if it exits first. */
export async function spawnServer({
  env,
  base,
  script = [SERVER_SCRIPT, BUILD],
  nodeArgs = [],
  anyAnswer = false,
  pollMs = 100,
  timeoutMs = Infinity,
  keepChunks = Infinity,
}: SpawnServerOptions): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeArgs, ...script], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const chunks: string[] = [];
  const keep = (chunk: Buffer) => {
    chunks.push(chunk.toString());
    if (chunks.length > keepChunks) chunks.shift();
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const log = () => chunks.join("");
  const exited = new Promise<Exit>((done) => child.once("exit", (code, signal) => done({ code, signal })));
  const state: { gone?: Exit } = {};
  void exited.then((how) => (state.gone = how));
  const deadline = Date.now() + timeoutMs;
  // Readiness polling (bounded by the caller's timeout); nothing is asserted on how long it takes.
  for (;;) {
    const { gone } = state;
    if (gone) throw new Error(`server exited (${gone.signal ?? `code ${gone.code}`}) before it was ready:\n${log()}`);
    if (Date.now() >= deadline) {
      child.kill("SIGKILL");
      throw new Error(`The server did not start within ${timeoutMs} ms:\n${log()}`);
    }
    try {
      const res = await fetch(`${base}/healthz`);
      await res.body?.cancel();
      if (res.ok || anyAnswer) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return { child, log, exited };
}

/** SIGTERM, then SIGKILL if it is still running after `killAfterMs`; resolves once it has exited. */
export async function stopServer(server: Pick<ServerProcess, "child" | "exited">, { killAfterMs = 10_000 } = {}) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return server.exited;
  server.child.kill("SIGTERM");
  const timer = setTimeout(() => server.child.kill("SIGKILL"), killAfterMs);
  try {
    return await server.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** How many runs of a periodic job the server logged so far (it must run with JOBS_TRACE=1). */
export const jobRuns = (server: Pick<ServerProcess, "log">, job: string) =>
  server.log().split(`[jobs] ${job} ran`).length - 1;

/**
 * Waits until each server (run with JOBS_TRACE=1) has logged `more` runs of the periodic job
 * `job` ("mail", "contracts", "saved-searches"…) after this call: "nothing changes over a few
 * more runs" without guessing how long runs take. Across all of a launcher's workers: with two
 * workers, `more` runs may be one of each.
 */
export async function moreJobRuns(
  servers: Pick<ServerProcess, "log">[],
  job: string,
  more: number,
  timeoutMs = 30_000,
) {
  const from = servers.map((s) => jobRuns(s, job));
  const deadline = Date.now() + timeoutMs;
  while (servers.some((s, i) => jobRuns(s, job) < from[i]! + more)) {
    if (Date.now() > deadline) throw new Error(`fewer than ${more} more runs of ${job} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
