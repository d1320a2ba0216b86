import { createHash, randomBytes } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { config, isProduction } from "~/config.server";
import { db } from "../../../db";
import type { UserRow } from "../../../db/schema";
import { mirrorCookie } from "./mirror.server";

export const SESSION_DAYS = 30;

export const sessionCookie = createCookie("freela_session", {
  httpOnly: true,
  sameSite: "lax",
  secure: isProduction,
  path: "/",
  secrets: [config.SESSION_SECRET],
  maxAge: SESSION_DAYS * 24 * 60 * 60,
});

export function hashToken(token: string) {
  return createHash("sha256").update(token).digest("hex");
}

/** A new opaque token; only its hash is stored, so a stolen database holds no live tokens. */
export async function createSession(userId: string) {
  const token = randomBytes(32).toString("base64url");
  const now = new Date();
  const expiresAt = new Date(now.getTime() + SESSION_DAYS * 24 * 60 * 60 * 1000).toISOString();
  await db
    .insertInto("sessions")
    .values({ id: hashToken(token), user_id: userId, expires_at: expiresAt, created_at: now.toISOString() })
    .execute();
  return { token, expiresAt };
}

/**
 * The user of a live session. A suspended or banned user has none: their sessions are deleted
 * by the sanction, and the check here holds even for a session made in between.
 */
export async function findSessionUser(token: string): Promise<UserRow | null> {
  const at = new Date().toISOString();
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .selectAll("users")
    .where("sessions.id", "=", hashToken(token))
    .where("sessions.expires_at", ">", at)
    .where("users.banned_at", "is", null)
    .where((eb) => eb.or([eb("users.suspended_until", "is", null), eb("users.suspended_until", "<=", at)]))
    .executeTakeFirst();
  return row ?? null;
}

export async function revokeSession(token: string) {
  await db.deleteFrom("sessions").where("id", "=", hashToken(token)).execute();
}

/**
 * The cookies that sign a browser in with the token of a session just created (login() makes
 * it): the session cookie, and the one-time mirror of the token for the page's script. Every
 * login gets a new session; one this browser still carried is ended, not reused.
 */
export async function browserSignIn(request: Request, token: string): Promise<Headers> {
  const previous = await getRequestToken(request);
  if (previous && previous !== token) await revokeSession(previous);
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionCookie.serialize(token));
  headers.append("Set-Cookie", await mirrorCookie.serialize(token));
  return headers;
}

/**
 * Signs out the client of a request, page or API: its session row is deleted, so the token is
 * dead for every client that holds it. Returns the Set-Cookie that clears a browser's cookie.
 */
export async function endSession(request: Request): Promise<string> {
  const token = await getRequestToken(request);
  if (token) await revokeSession(token);
  return sessionCookie.serialize("", { maxAge: 0 });
}

/** Deletes the sessions expired before `now` (they already sign nobody in); returns how many. */
export async function deleteExpiredSessions(now = new Date()) {
  const deleted = await db.deleteFrom("sessions").where("expires_at", "<", now.toISOString()).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

/** The token a request carries: a Bearer header (API clients) or the signed cookie (browsers). */
export async function getRequestToken(request: Request): Promise<string | null> {
  const auth = request.headers.get("Authorization");
  if (auth?.startsWith("Bearer ")) return auth.slice(7).trim() || null;
  const value = await sessionCookie.parse(request.headers.get("Cookie"));
  return typeof value === "string" && value ? value : null;
}

const resolved = new WeakMap<Request, Promise<{ user: UserRow; token: string } | null>>();

/** The signed-in user of a request, looked up once per request. */
export function getSession(request: Request) {
  let found = resolved.get(request);
  if (!found) {
    found = (async () => {
      const token = await getRequestToken(request);
      if (!token) return null;
      const user = await findSessionUser(token);
      return user ? { user, token } : null;
    })();
    resolved.set(request, found);
  }
  return found;
}

export async function getOptionalUser(request: Request) {
  return (await getSession(request))?.user ?? null;
}
