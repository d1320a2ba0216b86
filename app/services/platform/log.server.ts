import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import pino from "pino";
import { config } from "../../config.server";

// The server's log: one JSON line per event on stdout (pino, decision 060), with the request id
// of the request it happened in. A person running `npm run demo` in a terminal gets it pretty
// (pino-pretty, a development dependency) instead.

/** What one request carries for its log lines: its id, and the signed-in user once known. */
export type RequestContext = { id: string; userId?: string };

// The requests being answered, by a key of their own that observeRequests puts in the request's
// CONTEXT_HEADER (whatever a client sent there is overwritten). Not an AsyncLocalStorage: on
// Node 20 it hooks every promise, a measured tenth of a millisecond on each JSON list request.
const open = new Map<string, RequestContext>();
let sequence = 0;

/** The header observeRequests sets on each request to the key of its context. */
export const CONTEXT_HEADER = "x-freela-context";

/** Opens a request's context (scripts/server.js, through observeRequests): its key. */
export function openRequest(context: RequestContext): string {
  const key = String(++sequence);
  open.set(key, context);
  return key;
}

/** Closes it once the request is answered. */
export function closeRequest(key: string) {
  open.delete(key);
}

/** Notes the signed-in user of `request` (its access line carries the id, never the e-mail). */
export function noteUser(request: Request, userId: string) {
  const key = request.headers.get(CONTEXT_HEADER);
  const context = key ? open.get(key) : undefined;
  if (context) context.userId = userId;
}

/** The request's id (set by observeRequests), for error pages, error bodies and log lines. */
export const requestIdOf = (request: Request | undefined) => request?.headers.get("x-request-id") ?? undefined;

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
  // Written in the background, in writes of at least 4 KB (one write call per line cost the JSON
  // list ~6 % of its CPU), and at least every second when traffic is light; an error goes out at
  // once (hooks below), and what is left is flushed on exit.
  const stream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => stream.flush(), 1000).unref();
  return stream;
}

const ERROR = 50;

function createLogger() {
  const level = config.LOG_LEVEL ?? (config.NODE_ENV === "test" ? "silent" : "info");
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // An error (or fatal) line is not left in the buffer: support looks for it by the request
      // id the person was shown a moment ago.
      hooks: {
        logMethod(args, method, level) {
          method.apply(this, args);
          if (level >= ERROR) this.flush();
        },
      },
    },
    level === "silent" ? undefined : destination(),
  );
}

/** remix dev loads the build again after each change: one logger (one stdout stream) per process. */
const kept = globalThis as unknown as { __freelaLogger?: pino.Logger };
export const logger: pino.Logger = (kept.__freelaLogger ??= createLogger());

/** Logs an error with its stack (`err`), under `message`, with the id of the request it happened in. */
export function logError(error: unknown, message = "error", request?: Request) {
  logger.error({ err: error, req_id: requestIdOf(request) }, message);
}
