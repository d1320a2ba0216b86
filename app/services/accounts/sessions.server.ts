import { createHash, randomBytes } from "node:crypto";
import { db } from "../../../db";
import type { UserRow } from "../../../db/schema";

// Sessions in the database: an opaque token, only its hash stored. How a request carries one
// (cookie or Bearer header) is the web layer's (app/web/session.server.ts).

export const SESSION_DAYS = 30;

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

/** Deletes the sessions expired before `now` (they already sign nobody in); returns how many. */
export async function deleteExpiredSessions(now = new Date()) {
  const deleted = await db.deleteFrom("sessions").where("expires_at", "<", now.toISOString()).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
