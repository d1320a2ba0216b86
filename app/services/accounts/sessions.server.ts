import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { CompiledQuery, Kysely } from "kysely";
import { config } from "~/config.server";
import { db } from "../../../db";
import type { Database, UserRow } from "../../../db/schema";
import { emailTime, queueAccountEmail } from "../messaging/account-email.server";
import { z } from "zod";
import { bindStandIns, standIn } from "../platform/compiled-queries.server";
import { AppError, parseInput } from "../platform/errors.server";
import { consume, limiters, takeIfLeft } from "../platform/rate-limit.server";
import { deviceOf, type Device } from "./devices";

// Sessions in the database: an opaque token, only its hash stored. How a request carries one
// (cookie or Bearer header) is the web layer's (app/web/session.server.ts). Each session keeps
// the device it signed in from, its address and its last use, for the list in the security
// settings and GET /api/sessions (docs/product.md, "Contas e sessões"). Ending a session deletes
// its row, so the token stops working on every server at once.

export const SESSION_DAYS = 30;
/** Sessions an account keeps at most; a sign-in past it ends the least recently used. */
export const SESSIONS_MAX = 100;
/** The last use is written at most this often per session: a read, not a write, per request. */
export const LAST_USED_STEP_MS = 5 * 60 * 1000;
const AGENT_MAX = 300;

export function hashToken(token: string) {
  return createHash("sha256").update(token).digest("hex");
}

/** Where a session is opened from, as the web layer reads it. */
export type Origin = { ip?: string | null; place?: string | null; userAgent?: string | null };

const agentOf = (origin: Origin) => origin.userAgent?.slice(0, AGENT_MAX) || null;

/**
 * A new opaque token; only its hash is stored, so a stolen database holds no live tokens. The
 * device and address are kept for the sessions list. A sign-in (`signIn`: the password, the
 * second step, a passkey) is limited per account (SIGN_INS_PER_HOUR, then 429), keeps at most
 * SESSIONS_MAX sessions per account (the least recently used go), and, when the account has
 * signed in before but never from this user agent, e-mails a sign-in notice with a link that
 * ends this session (built from APP_URL only): only to a confirmed address, and at most
 * NOTICES_PER_DAY a day per account.
 */
export async function createSession(
  userId: string,
  origin: Origin = {},
  { signIn = false, passkeyId = null }: { signIn?: boolean; passkeyId?: string | null } = {},
) {
  if (signIn) await consume(limiters.signInByUser, userId, "sign_in_rate_limited");
  const token = randomBytes(32).toString("base64url");
  const now = new Date();
  const at = now.toISOString();
  const expiresAt = new Date(now.getTime() + SESSION_DAYS * 24 * 60 * 60 * 1000).toISOString();
  const userAgent = agentOf(origin);
  // Statements of their own, no transaction: on SQLite a transaction held across awaits would
  // keep the write lock from the rate limiter's connection (a login's busiest neighbour). A
  // notice lost to a crash between the two inserts is the worst that can happen.
  const endToken = signIn && (await noticeDue(userId, userAgent, at)) ? randomBytes(32).toString("base64url") : null;
  await db
    .insertInto("sessions")
    .values({
      id: hashToken(token),
      user_id: userId,
      expires_at: expiresAt,
      created_at: at,
      public_id: randomUUID(),
      user_agent: userAgent,
      ip: origin.ip ?? null,
      place: origin.place ?? null,
      last_used_at: at,
      end_token: endToken ? hashToken(endToken) : null,
      passkey_id: passkeyId,
    })
    .execute();
  if (signIn) await dropOldestSessions(userId);
  if (endToken) await queueSignInNotice(db, userId, { userAgent, ip: origin.ip ?? null, at, endToken });
  return { token, expiresAt };
}

/**
 * Whether this sign-in gets a notice: a device new to the account (recorded either way), an
 * address its owner has confirmed (a notice never goes to an address nobody proved is theirs:
 * anyone may register with it), and the day's notices of the account not used up.
 */
async function noticeDue(userId: string, userAgent: string | null, at: string) {
  if (!(await isNewDevice(db, userId, userAgent, at))) return false;
  const user = await db.selectFrom("users").select("email_verified_at").where("id", "=", userId).executeTakeFirst();
  if (!user?.email_verified_at) return false;
  return takeIfLeft(limiters.signInNoticeByUser, userId);
}

/** Deletes the account's sessions past the SESSIONS_MAX most recently used. */
async function dropOldestSessions(userId: string) {
  const newest = (qb: typeof db) =>
    qb
      .selectFrom("sessions")
      .where("user_id", "=", userId)
      .orderBy("last_used_at", "desc")
      .orderBy("created_at", "desc")
      .orderBy("id");
  const cut = await newest(db).select(["id"]).limit(1).offset(SESSIONS_MAX).executeTakeFirst();
  if (!cut) return;
  const keep = newest(db).select("id").limit(SESSIONS_MAX);
  await db.deleteFrom("sessions").where("user_id", "=", userId).where("id", "not in", keep).execute();
}

/**
 * Records the device (the hash of its user agent) for the account; true when the account had
 * signed in from other devices before but never from this one. The first device of an account
 * is its owner's (they just registered), and is recorded without a notice.
 */
async function isNewDevice(trx: Kysely<Database>, userId: string, userAgent: string | null, at: string) {
  const agentHash = hashToken(userAgent ?? "");
  const inserted = await trx
    .insertInto("account_devices")
    .values({ user_id: userId, agent_hash: agentHash, first_seen_at: at })
    .onConflict((oc) => oc.columns(["user_id", "agent_hash"]).doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
  const others = await trx
    .selectFrom("account_devices")
    .select("agent_hash")
    .where("user_id", "=", userId)
    .where("agent_hash", "!=", agentHash)
    .limit(1)
    .execute();
  return others.length > 0;
}

async function queueSignInNotice(
  trx: Kysely<Database>,
  userId: string,
  { userAgent, ip, at, endToken }: { userAgent: string | null; ip: string | null; at: string; endToken: string },
) {
  const device = deviceOf(userAgent);
  await queueAccountEmail(
    trx,
    userId,
    "sign_in_notice",
    {
      params: {
        device: `${device.browser ?? "?"} · ${device.os ?? "?"}`,
        ip: ip ?? "-",
        at: emailTime(at),
        link: `${config.APP_URL}/sessions/end?token=${encodeURIComponent(endToken)}`,
      },
    },
    at,
  );
}

/**
 * The user of a live session. A suspended or banned user has none: their sessions are deleted
 * by the sanction, and the check here holds even for a session made in between. Its last use
 * (and address) is refreshed when the stored one is older than LAST_USED_STEP_MS: one
 * conditional write every few minutes, none per request.
 */
export async function findSession(
  token: string,
  origin: Origin = {},
): Promise<{ user: UserRow; viaPasskey: boolean } | null> {
  const id = hashToken(token);
  const at = new Date().toISOString();
  const [row] = (await db.executeQuery<SessionLookupRow>(bindStandIns(sessionLookup, [TOKEN_HASH, id], [NOW, at])))
    .rows;
  if (!row) return null;
  const { session_last_used_at: lastUsed, session_passkey_id: passkeyId, ...user } = row;
  const now = Date.now();
  if (!lastUsed || Date.parse(lastUsed) < now - LAST_USED_STEP_MS) {
    const stale = new Date(now - LAST_USED_STEP_MS).toISOString();
    await db
      .updateTable("sessions")
      .set({ last_used_at: new Date(now).toISOString(), ...(origin.ip ? { ip: origin.ip } : {}) })
      .where("id", "=", id)
      .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", stale)]))
      .execute();
  }
  return { user, viaPasskey: passkeyId !== null };
}

// Stand for the token's hash and the time in the compiled session lookup.
const TOKEN_HASH = standIn("tokenHash");
const NOW = standIn("now");

function sessionLookupQuery(id: string, at: string) {
  return liveSessionRows(at)
    .selectAll("users")
    .select(["sessions.last_used_at as session_last_used_at", "sessions.passkey_id as session_passkey_id"])
    .where("sessions.id", "=", id);
}
type SessionLookupRow = Awaited<ReturnType<ReturnType<typeof sessionLookupQuery>["executeTakeFirstOrThrow"]>>;

/**
 * The session lookup of every signed-in request, built and compiled by Kysely once per process
 * (it cost ~8% of a JSON list request when built each time) and bound to the token's hash and
 * the time on each use.
 */
const sessionLookup: CompiledQuery = sessionLookupQuery(TOKEN_HASH, NOW).compile();

/**
 * Which of these sessions (by id: the token's hash) are still live, by findSession's rule. For
 * open event streams, which end when their session does; 500 ids per statement.
 */
export async function liveSessions(ids: string[]): Promise<Set<string>> {
  const live = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await liveSessionsQuery(ids.slice(i, i + 500)).execute();
    for (const row of rows) live.add(row.id);
  }
  return live;
}

/** The ids among `ids` of live sessions, as a query (a subquery of the event streams' reads). */
export function liveSessionsQuery(ids: string[]) {
  return liveSessionRows().select("sessions.id").where("sessions.id", "in", ids);
}

/**
 * Sessions with their users, only the live ones: not expired, and their user neither banned nor
 * suspended now. The one rule of findSession, liveSessions and the event streams.
 */
function liveSessionRows(at = new Date().toISOString()) {
  return db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .where("sessions.expires_at", ">", at)
    .where("users.banned_at", "is", null)
    .where((eb) => eb.or([eb("users.suspended_until", "is", null), eb("users.suspended_until", "<=", at)]));
}

/** The user of a live session (findSession without how it was opened). */
export async function findSessionUser(token: string, origin: Origin = {}): Promise<UserRow | null> {
  return (await findSession(token, origin))?.user ?? null;
}

export async function revokeSession(token: string) {
  await db.deleteFrom("sessions").where("id", "=", hashToken(token)).execute();
}

/** A session as its owner sees it in the list. */
export type SessionView = {
  id: string;
  device: Device;
  ip: string | null;
  /** Where it signed in from, when the operator's proxy says (PLACE_HEADER); null: unknown, not shown. */
  place: string | null;
  created_at: string;
  last_used_at: string;
  current: boolean;
};

/** The account's open sessions, the one making the request first and marked, then by last use. */
export async function listSessions(user: Pick<UserRow, "id">, currentToken: string | null): Promise<SessionView[]> {
  const currentId = currentToken ? hashToken(currentToken) : null;
  const rows = await db
    .selectFrom("sessions")
    .select(["id", "public_id", "user_agent", "ip", "place", "created_at", "last_used_at"])
    .where("user_id", "=", user.id)
    .where("expires_at", ">", new Date().toISOString())
    .orderBy("last_used_at", "desc")
    .orderBy("created_at", "desc")
    .limit(200)
    .execute();
  const views = rows
    .filter((r) => r.public_id)
    .map((r) => ({
      id: r.public_id!,
      device: deviceOf(r.user_agent),
      ip: r.ip,
      place: r.place,
      created_at: r.created_at,
      last_used_at: r.last_used_at ?? r.created_at,
      current: r.id === currentId,
    }));
  return [...views.filter((v) => v.current), ...views.filter((v) => !v.current)];
}

/**
 * Ends one of the account's sessions by its public id: 404 when it is not one of theirs (or is
 * already ended; two ends at once, one deletes and the other finds nothing). Ending the current
 * session is signing out, which the caller does with endSession; here it is refused (409).
 */
export async function endSessionById(user: Pick<UserRow, "id">, publicId: string, currentToken: string | null) {
  const currentId = currentToken ? hashToken(currentToken) : null;
  const found = await db
    .selectFrom("sessions")
    .select("id")
    .where("public_id", "=", publicId)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (!found) throw new AppError(404, "session_not_found");
  if (found.id === currentId) throw new AppError(409, "session_is_current");
  const deleted = await db
    .deleteFrom("sessions")
    .where("id", "=", found.id)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw new AppError(404, "session_not_found");
}

/** "Encerrar todas as outras": every session of the account but the current one; returns how many. */
export async function endOtherSessions(user: Pick<UserRow, "id">, currentToken: string | null) {
  const deleted = await db
    .deleteFrom("sessions")
    .where("user_id", "=", user.id)
    .$if(Boolean(currentToken), (qb) => qb.where("id", "!=", hashToken(currentToken!)))
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

const linkSchema = z.object({
  token: z
    .string({ required_error: "session_link_invalid", invalid_type_error: "session_link_invalid" })
    .min(1, "session_link_invalid")
    .max(200, "session_link_invalid"),
});

/**
 * The session a sign-in notice's link names, for the page that asks to confirm: 410 once it has
 * ended (by the link, a sign-out, the list), 422 for a malformed link.
 */
export async function findNoticedSession(input: unknown) {
  const { token } = parseInput(linkSchema, input, "session_link_invalid");
  const found = await db
    .selectFrom("sessions")
    .select(["user_agent", "ip", "created_at"])
    .where("end_token", "=", hashToken(token))
    .executeTakeFirst();
  if (!found) throw new AppError(410, "session_link_gone");
  return { device: deviceOf(found.user_agent), ip: found.ip, created_at: found.created_at };
}

/**
 * The sign-in notice's link: ends the session it was sent about (whoever opens it, signed in or
 * not; the link is the proof). Once that session has ended, the link answers 410; two opens at
 * once: one ends it, the other gets the 410.
 */
export async function endNoticedSession(input: unknown) {
  const { token } = parseInput(linkSchema, input, "session_link_invalid");
  const deleted = await db.deleteFrom("sessions").where("end_token", "=", hashToken(token)).executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw new AppError(410, "session_link_gone");
}

/** Deletes the sessions expired before `now` (they already sign nobody in); returns how many. */
export async function deleteExpiredSessions(now = new Date()) {
  const deleted = await db.deleteFrom("sessions").where("expires_at", "<", now.toISOString()).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
