import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Piscina } from "piscina";
import { config } from "~/config.server";
import { AppError } from "../platform/errors.server";

// bcrypt is slow on purpose (about 70 ms of CPU at cost 10 with bcryptjs), and bcryptjs runs in
// JavaScript: on the event loop, a burst of 20 logins a second would take all of it and every
// other request would queue behind them. The hashing runs in worker threads instead: one fewer
// than the cores per server process, and at least one (with one server process per core, as
// npm start runs, each process has one).

// The worker is a file of its own (app/workers), found from the source module, from the server
// build (build/index.js) or from the working directory, whichever this process runs from.
const WORKER_FILE = "passwords.worker.mjs";
const WORKER =
  [
    fileURLToPath(new URL(`../../workers/${WORKER_FILE}`, import.meta.url)),
    fileURLToPath(new URL(`../app/workers/${WORKER_FILE}`, import.meta.url)),
    resolve("app/workers", WORKER_FILE),
  ].find((file) => existsSync(file)) ?? resolve("app/workers", WORKER_FILE);
/** Password checks waiting beyond this answer 429 at once instead of piling up. */
const MAX_QUEUE = 200;

let pool: Piscina | undefined;
function workers() {
  pool ??= new Piscina({
    filename: pathToFileURL(WORKER).href,
    minThreads: 0,
    maxThreads: Math.max(1, availableParallelism() - 1),
    idleTimeout: 60_000,
    maxQueue: MAX_QUEUE,
  });
  return pool;
}

async function run<T>(task: Record<string, unknown>): Promise<T> {
  try {
    return (await workers().run(task)) as T;
  } catch (error) {
    if (error instanceof Error && /queue is at limit/i.test(error.message)) {
      throw new AppError(429, "rate_limited", undefined, { minutes: 1, seconds: 5 }, { "Retry-After": "5" });
    }
    throw error;
  }
}

export const hashPassword = (password: string) => run<string>({ op: "hash", password, cost: config.BCRYPT_COST });

export const verifyPassword = (password: string, hash: string) => run<boolean>({ op: "compare", password, hash });
