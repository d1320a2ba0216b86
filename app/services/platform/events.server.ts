import cluster from "node:cluster";
import { sql, type Kysely } from "kysely";
import pg from "pg";
import { config } from "~/config.server";
import { afterCommit, beforeCommit, db, engine } from "../../../db";
import type { Database, EventKind } from "../../../db/schema";
import { liveSessions, liveSessionsQuery } from "../accounts/sessions.server";
import { AppError } from "./errors.server";
import { now } from "./records.server";
import { logger } from "./log.server";

// Live updates (docs/architecture.md, "Live updates"). A write that a user's open pages should
// hear of (a message, a notification, a contract's move) publishes an event addressed to that
// user in its own transaction: a row of `events`, numbered in commit order. Each server process
// holds the open streams of GET /api/events; when events commit, the processes that may hold a
// recipient's stream are woken (PostgreSQL: NOTIFY, heard by one LISTEN connection per process;
// SQLite: the launcher relays between the workers of the machine) and each woken stream reads
// its user's rows past the last one it sent. A wake carries no event, so one lost costs only
// latency: every SAFETY_MS each process looks for rows it was not woken for. Rows live an hour
// (the housekeeping), which bounds what a reconnect with Last-Event-ID can replay.

export type LiveEvent = { user_id: string; kind: EventKind; ref?: string | null };

/** How long events are kept for a reconnecting stream to replay. */
export const EVENTS_KEEP_MS = 60 * 60 * 1000;
/** A comment on every open stream this often, so proxies and browsers keep the connection. */
export const HEARTBEAT_MS = Number(process.env.EVENTS_HEARTBEAT_MS) || 20_000;
/** How often each process reads events it may not have been woken for. */
export const SAFETY_MS = Number(process.env.EVENTS_SAFETY_MS) || 15_000;
/** What a browser waits before reconnecting a dropped stream. */
export const RETRY_MS = 3_000;
/**
 * Open streams one session, and one account, may hold in a process: a browser opens one per tab
 * (and HTTP/1.1 lets it hold six per site at most). A new stream past either cap ends the oldest
 * of that session (or account), told to wait REPLACED_RETRY_MS before reconnecting, so a token
 * cannot hold thousands of connections; across processes the caps add up, one set per process.
 */
export const MAX_STREAMS_PER_SESSION = 8;
export const MAX_STREAMS_PER_ACCOUNT = 16;
const REPLACED_RETRY_MS = 60_000;
/** Events read per query; a stream further behind reads again. */
const BATCH = 100;
const CHANNEL = "freela_events";
/** The transaction-level advisory lock that makes event numbers commit in order on PostgreSQL. */
export const ORDER_LOCK = 0x6672_6576; // "frev"
/** NOTIFY's payload is at most 8 000 bytes: past this many recipients, the wake is for everyone. */
const NOTIFY_USERS = 150;
const IPC_TYPE = "freela:events";

/**
 * Publishes events in the caller's transaction: they are stored at its end, and the streams of
 * their users are woken once it commits (never if it rolls back).
 */
export async function publish(trx: Kysely<Database>, events: LiveEvent[]) {
  if (events.length === 0) return;
  await beforeCommit(trx, () => store(trx, events));
  const users = [...new Set(events.map((e) => e.user_id))];
  afterCommit(trx, () => {
    wakeUsers(users);
    relay(users);
  });
}

/** A contract moved (an event on its timeline): both sides' open pages of it reload. */
export async function publishContractMove(trx: Kysely<Database>, contractId: string) {
  const sides = await trx
    .selectFrom("contracts")
    .select(["merchant_id", "freelancer_id"])
    .where("id", "=", contractId)
    .executeTakeFirst();
  if (!sides) return;
  await publish(trx, [
    { user_id: sides.merchant_id, kind: "contract", ref: contractId },
    { user_id: sides.freelancer_id, kind: "contract", ref: contractId },
  ]);
}

async function store(trx: Kysely<Database>, events: LiveEvent[]) {
  const at = now();
  const rows = events.map((e) => ({ user_id: e.user_id, kind: e.kind, ref: e.ref ?? null, created_at: at }));
  if (engine === "sqlite") {
    await trx.insertInto("events").values(rows).execute();
    return;
  }
  // On PostgreSQL numbers are taken at insert but seen at commit: two transactions could commit
  // out of order, and a stream that had read the higher number would skip the lower. Taken last,
  // just before the commit, and before the rows take their numbers, this lock lets one publishing
  // transaction at a time commit. The NOTIFY is delivered to every listener when (and only if)
  // the transaction commits. One statement for the three (a message's write is mostly round
  // trips): the rows are joined to a one-row subquery that takes the lock and queues the
  // notification, and PostgreSQL evaluates it (its functions are volatile: never pulled up nor
  // dropped) before the first row, whose number is drawn once the row is formed.
  const users = [...new Set(events.map((e) => e.user_id))];
  const payload = users.length > NOTIFY_USERS ? "*" : users.join(",");
  const values = sql.join(rows.map((r) => sql`(${r.user_id}, ${r.kind}, ${r.ref}, ${r.created_at})`));
  await sql`
    INSERT INTO events (user_id, kind, ref, created_at)
    SELECT v.user_id, v.kind, v.ref, v.created_at
      FROM (VALUES ${values}) AS v(user_id, kind, ref, created_at)
     CROSS JOIN (SELECT pg_advisory_xact_lock(${ORDER_LOCK}), pg_notify(${CHANNEL}, ${payload})) AS ordered`.execute(
    trx,
  );
}

/** A user's events after `after`, oldest first; with `sessionId`, none unless that session is live. */
export async function eventsAfter(userId: string, after: number, limit = BATCH, sessionId?: string) {
  let query = db
    .selectFrom("events")
    .select(["id", "kind", "ref"])
    .where("user_id", "=", userId)
    .where("id", ">", after);
  if (sessionId !== undefined) query = query.where((eb) => eb.exists(liveSessionsQuery([sessionId])));
  return query.orderBy("id").limit(limit).execute();
}

/** The number of the newest event (0 with none): where a stream without Last-Event-ID starts. */
export async function lastEventId(): Promise<number> {
  const row = await db
    .selectFrom("events")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/**
 * Where a stream starts: after the Last-Event-ID its browser sent back (so it replays what it
 * missed while away, as far back as events are kept), else after the newest event. A number
 * past the newest is taken as the newest; anything but a whole number is a 400.
 */
export async function streamStart(lastSeen: string | null): Promise<number> {
  const newest = await lastEventId();
  if (lastSeen === null || lastSeen === "") return newest;
  if (!/^\d{1,15}$/.test(lastSeen)) throw new AppError(400, "last_event_id_invalid");
  return Math.min(Number(lastSeen), newest);
}

/** Deletes events older than EVENTS_KEEP_MS (the housekeeping). */
export async function pruneEvents(at = new Date()) {
  const before = new Date(at.getTime() - EVENTS_KEEP_MS).toISOString();
  const result = await db.deleteFrom("events").where("created_at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---------------------------------------------------------------------------------------------
// The open streams of this process.

/** One open stream: a few fields and two closures, so thousands fit in a few megabytes. */
export type Subscriber = {
  userId: string;
  /** The session's id (its token's hash): the stream ends when the session does. */
  sessionId: string;
  /** The last event sent. */
  cursor: number;
  write: (chunk: string) => void;
  close: () => void;
  reading: boolean;
  again: boolean;
};

type Hub = {
  streams: Map<string, Set<Subscriber>>;
  count: number;
  timers: (() => void)[];
  /** The newest event this process has looked at (the safety check reads past it). */
  seen: number;
  listener: PgListener | null;
  ipc: boolean;
};

const kept = globalThis as unknown as { __freelaEvents?: Hub };
const hub: Hub = (kept.__freelaEvents ??= {
  streams: new Map(),
  count: 0,
  timers: [],
  seen: 0,
  listener: null,
  ipc: false,
});

/** Open streams in this process (the bench and the tests read it). */
export function openStreams() {
  return hub.count;
}

/**
 * Adds an open stream: it is sent its user's events from now on, a heartbeat, and ends when its
 * session does (or when the client goes away: call the returned function).
 */
export function subscribe(subscriber: Subscriber): () => void {
  let set = hub.streams.get(subscriber.userId);
  if (!set) hub.streams.set(subscriber.userId, (set = new Set()));
  set.add(subscriber);
  hub.count++;
  if (hub.count === 1) start();
  endOldest(set, subscriber.sessionId);
  // Events that committed between the request's start and now.
  void deliver(subscriber);
  let gone = false;
  return () => {
    if (gone) return;
    gone = true;
    const users = hub.streams.get(subscriber.userId);
    if (users?.delete(subscriber)) {
      hub.count--;
      if (users.size === 0) hub.streams.delete(subscriber.userId);
    }
    if (hub.count === 0) stop();
  };
}

/** Ends the oldest streams of an account over the caps (a Set iterates in the order of insertion). */
function endOldest(streams: Set<Subscriber>, sessionId: string) {
  const all = [...streams];
  const ofSession = all.filter((s) => s.sessionId === sessionId);
  const ended = new Set(ofSession.slice(0, Math.max(0, ofSession.length - MAX_STREAMS_PER_SESSION)));
  const left = all.filter((s) => !ended.has(s));
  for (const s of left.slice(0, Math.max(0, left.length - MAX_STREAMS_PER_ACCOUNT))) ended.add(s);
  for (const s of ended) {
    s.write(`retry: ${REPLACED_RETRY_MS}\n\n`);
    s.close();
  }
}

/** Reads and sends a stream's new events; a wake while it reads makes it read once more. */
async function deliver(s: Subscriber) {
  if (s.reading) {
    s.again = true;
    return;
  }
  s.reading = true;
  try {
    do {
      s.again = false;
      // The events are read only while the stream's session is live (one query for both); when
      // none come, the session alone is checked, so an ended one ends the stream at this wake.
      let sent = 0;
      for (;;) {
        const rows = await eventsAfter(s.userId, s.cursor, BATCH, s.sessionId);
        for (const row of rows) {
          s.write(`id: ${row.id}\ndata: ${JSON.stringify({ kind: row.kind, ref: row.ref })}\n\n`);
          s.cursor = row.id;
        }
        sent += rows.length;
        if (rows.length < BATCH) break;
      }
      if (sent === 0 && !(await liveSessions([s.sessionId])).has(s.sessionId)) return s.close();
    } while (s.again);
  } catch (error) {
    logger.error(`[events] delivery failed: ${error instanceof Error ? error.message : error}`);
  } finally {
    s.reading = false;
  }
}

/** Wakes the streams of these users held by this process. */
export function wakeUsers(users: readonly string[] | "*") {
  if (users === "*") {
    for (const set of hub.streams.values()) for (const s of set) void deliver(s);
    return;
  }
  for (const user of users) {
    const set = hub.streams.get(user);
    if (set) for (const s of set) void deliver(s);
  }
}

/** Ends every open stream of this process (the server is stopping). */
export function closeEventStreams() {
  for (const set of [...hub.streams.values()]) for (const s of [...set]) s.close();
  stop();
}

function start() {
  hub.timers.push(repeat(HEARTBEAT_MS, sweepStreams), repeat(SAFETY_MS, safetyCheck));
  void lastEventId()
    .then((id) => (hub.seen = Math.max(hub.seen, id)))
    .catch(() => {});
  if (engine === "postgres" && config.DATABASE_URL) hub.listener ??= listen(config.DATABASE_URL);
  listenToLauncher();
}

function stop() {
  for (const cancel of hub.timers.splice(0)) cancel();
  hub.listener?.end();
  hub.listener = null;
}

function repeat(interval: number, job: () => Promise<void>) {
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      await job();
    } catch (error) {
      logger.error(`[events] ${error instanceof Error ? error.message : error}`);
    } finally {
      running = false;
    }
  }, interval);
  timer.unref();
  return () => clearInterval(timer);
}

/** A comment on every stream, and the end of those whose session has ended meanwhile (the heartbeat). */
export async function sweepStreams() {
  const all = [...hub.streams.values()].flatMap((set) => [...set]);
  for (const s of all) s.write(": \n\n");
  const alive = await liveSessions([...new Set(all.map((s) => s.sessionId))]);
  for (const s of all) if (!alive.has(s.sessionId)) s.close();
}

/** Wakes the streams of users with events this process was not woken for. */
async function safetyCheck() {
  const rows = await db
    .selectFrom("events")
    .select(["id", "user_id"])
    .where("id", ">", hub.seen)
    .orderBy("id")
    .limit(5_000)
    .execute();
  if (rows.length === 0) return;
  hub.seen = rows[rows.length - 1].id;
  wakeUsers([...new Set(rows.map((r) => r.user_id))].filter((u) => hub.streams.has(u)));
}

// ---------------------------------------------------------------------------------------------
// Between processes.

/** SQLite, in a worker of scripts/serve.ts: tells the launcher, which tells the other workers. */
function relay(users: string[]) {
  if (engine !== "sqlite" || !cluster.isWorker || !process.send || !process.connected) return;
  try {
    process.send({ type: IPC_TYPE, users });
  } catch {
    // The launcher is stopping this worker; the other workers' safety check still finds the rows.
  }
}

function listenToLauncher() {
  if (hub.ipc || engine !== "sqlite" || !cluster.isWorker) return;
  hub.ipc = true;
  process.on("message", (message: unknown) => {
    const m = message as { type?: unknown; users?: unknown };
    if (m?.type === IPC_TYPE && Array.isArray(m.users)) wakeUsers(m.users.filter((u) => typeof u === "string"));
  });
}

type PgListener = { end: () => void };

/**
 * PostgreSQL: one connection per process LISTENing on the events' channel, reconnecting after a
 * second (then up to 30 s) when it drops; every stream is woken after a reconnect, since the
 * NOTIFYs sent meanwhile are lost.
 */
function listen(url: string): PgListener {
  let client: pg.Client | null = null;
  let ended = false;
  let delay = 1_000;
  let timer: NodeJS.Timeout | null = null;
  const connect = async () => {
    timer = null;
    if (ended) return;
    const c = new pg.Client({ connectionString: url });
    client = c;
    const retry = (error?: Error) => {
      if (client !== c) return;
      client = null;
      c.removeAllListeners();
      c.on("error", () => {});
      void c.end().catch(() => {});
      if (ended) return;
      if (error) logger.error(`[events] LISTEN connection lost: ${error.message}`);
      timer = setTimeout(connect, delay);
      timer.unref();
      delay = Math.min(delay * 2, 30_000);
    };
    c.on("error", retry);
    c.on("end", () => retry(new Error("closed")));
    c.on("notification", (n) => {
      if (n.channel !== CHANNEL) return;
      wakeUsers(n.payload === "*" || !n.payload ? "*" : n.payload.split(","));
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      delay = 1_000;
      wakeUsers("*");
    } catch (error) {
      retry(error as Error);
    }
  };
  void connect();
  return {
    end() {
      ended = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners();
        c.on("error", () => {});
        void c.end().catch(() => {});
      }
    },
  };
}
