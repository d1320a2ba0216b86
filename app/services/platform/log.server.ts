import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import pino from "pino";
import { config } from "../../config.server";

// The server's log: one JSON line per event on stdout (pino, decision 060), with the request id
// of the request it happened in. A person running `npm run demo` in a terminal gets it pretty
// (pino-pretty, a development dependency) instead.

/** What one request carries for its log lines: its id, and the signed-in user once known. */
export type RequestContext = { id: string; userId?: string };

const requests = new AsyncLocalStorage<RequestContext>();

/** The request being answered, if any (its id for error pages and bodies, its user for the log). */
export const currentRequest = () => requests.getStore();

/** Runs `fn` as part of the request `context` (scripts/server.js, through observeRequests). */
export const withRequest = <T>(context: RequestContext, fn: () => T) => requests.run(context, fn);

/** Notes the signed-in user of the current request (its access line carries the id, never the e-mail). */
export function noteUser(userId: string) {
  const context = requests.getStore();
  if (context) context.userId = userId;
}

const WELL_FORMED = /^[A-Za-z0-9._-]{8,64}$/;

/** The id of a request: the client's (or proxy's) X-Request-Id when well-formed, a new one otherwise. */
export function requestIdFrom(header: string | string[] | undefined | null): string {
  return typeof header === "string" && WELL_FORMED.test(header) ? header : randomUUID();
}

function destination(): pino.DestinationStream {
  if (process.stdout.isTTY && config.NODE_ENV !== "production") {
    try {
      const target = createRequire(import.meta.url).resolve("pino-pretty");
      return pino.transport({ target, options: { translateTime: "SYS:HH:MM:ss", ignore: "pid,hostname" } });
    } catch {
      // An install without development dependencies: JSON, as in production.
    }
  }
  // Written in the background: lines that come while a write is under way go out together with
  // the next one (not one write call per line); what is left is flushed on exit.
  return pino.destination({ dest: 1, sync: false });
}

function createLogger() {
  const level = config.LOG_LEVEL ?? (config.NODE_ENV === "test" ? "silent" : "info");
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // The request a line belongs to, for the lines written while answering it.
      mixin: () => {
        const context = requests.getStore();
        return context ? { req_id: context.id } : {};
      },
    },
    level === "silent" ? undefined : destination(),
  );
}

/** remix dev loads the build again after each change: one logger (one stdout stream) per process. */
const kept = globalThis as unknown as { __freelaLogger?: pino.Logger };
export const logger: pino.Logger = (kept.__freelaLogger ??= createLogger());

/** Logs an error with its stack (`err`), under `message`. */
export function logError(error: unknown, message = "error") {
  logger.error({ err: error }, message);
}
