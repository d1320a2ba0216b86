import {
  RateLimiterPostgres,
  RateLimiterRes,
  RateLimiterSQLite,
  type RateLimiterStoreAbstract,
} from "rate-limiter-flexible";
import { config } from "~/config.server";
import { REPORTS_PER_HOUR } from "~/lib/moderation";
import { sql } from "kysely";
import { db, openConnection, postgresPool } from "../../../db";
import { AppError } from "./errors.server";
import { metrics } from "./metrics.server";

export const WRITES_PER_MINUTE = 120;
export const SIGN_INS_PER_HOUR = 30;
export const NOTICES_PER_DAY = 3;

// The counters live in the database, in the table rate_limits (rate-limiter-flexible's layout,
// made by migration 008), so every server process shares them (npm start runs one per core;
// on PostgreSQL, every server) and a restart does not reset them.
// On SQLite they have a connection of their own: the library runs short transactions of its
// own, which must not land inside a Kysely transaction open on the app's connection. On
// PostgreSQL they take their turn on the app's pool.
const sqliteStore = postgresPool ? undefined : openConnection(config.DATABASE_PATH);
if (sqliteStore) process.once("exit", () => sqliteStore.close());

const limiter = (keyPrefix: string, points: number, duration: number) => {
  // Expired counters are swept by the server's housekeeping (deleteExpiredRateLimits), not by
  // a timer in every limiter of every process.
  const options = { tableName: "rate_limits", keyPrefix, points, duration, clearExpiredByTimeout: false };
  return postgresPool
    ? new RateLimiterPostgres({ ...options, storeClient: postgresPool, tableCreated: true })
    : new RateLimiterSQLite({ ...options, storeClient: sqliteStore, storeType: "better-sqlite3" });
};

export const limiters = {
  /** Failed logins per e-mail. */
  loginByEmail: limiter("login_email", 5, 15 * 60),
  /** Sign-ins per account (sessions opened): plenty for people, a ceiling for a flood. */
  signInByUser: limiter("sign_in_user", SIGN_INS_PER_HOUR, 60 * 60),
  /** "Novo acesso" notices e-mailed per account a day (the sessions list shows every sign-in). */
  signInNoticeByUser: limiter("sign_in_notice", NOTICES_PER_DAY, 24 * 60 * 60),
  /** Failed logins per client address. */
  loginByIp: limiter("login_ip", 50, 15 * 60),
  registerByIp: limiter("register_ip", 20, 60 * 60),
  /** Passkey sign-in challenges handed out per client address (each is a row for 5 minutes). */
  passkeyByIp: limiter("passkey_ip", 120, 15 * 60),
  resetByEmail: limiter("reset_email", 3, 60 * 60),
  resetByIp: limiter("reset_ip", 20, 60 * 60),
  /** Confirmation links asked for per user (resent, or for a new address). */
  verifyResendByUser: limiter("verify_resend", 3, 60 * 60),
  /** Invitations sent per merchant: enough to reach out, too few to spam the directory. */
  inviteByMerchant: limiter("invite_merchant", 30, 60 * 60),
  /** Reports per user: enough to flag what one meets, too few to flood the operators' queue. */
  reportByUser: limiter("report_user", REPORTS_PER_HOUR, 60 * 60),
  /** Copies of their data asked for per user: a few a day (each is a whole ZIP to build). */
  exportByUser: limiter("export_user", 3, 24 * 60 * 60),
  /** Writes per signed-in user: generous for people, a ceiling for runaway scripts. */
  writeByUser: limiter("write_user", WRITES_PER_MINUTE, 60),
};

/** The 429 of a limit (counted in /metrics by the limit's name, never by its key). */
function tooMany(limiter: RateLimiterStoreAbstract, res: RateLimiterRes, key = "rate_limited"): AppError {
  metrics.rateLimited.inc({ limit: limiter.keyPrefix });
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new AppError(
    429,
    key,
    undefined,
    { minutes: Math.ceil(seconds / 60), seconds },
    {
      "Retry-After": String(seconds),
    },
  );
}

/** A limiter and the key an attempt counts against; a null key is not limited. */
export type AttemptKey = readonly [RateLimiterStoreAbstract, string | null];

/**
 * Takes one attempt from each key's allowance BEFORE the caller judges it (a password, a code):
 * the take is one atomic write in the shared table, so a burst of parallel attempts, on any
 * number of servers, has at most `points` judged and the rest get 429 without being judged.
 * Past any key's limit it throws the 429 (the points taken from the other keys are given back).
 * The answer's `giveBack` returns the points: call it when the attempt proved right, so that
 * only failures count.
 */
export async function takeAttempt(...keys: AttemptKey[]): Promise<{ giveBack: () => Promise<void> }> {
  const taken: AttemptKey[] = [];
  const giveBack = async () => {
    await Promise.all(taken.map(([limiter, key]) => limiter.reward(key!, 1)));
  };
  for (const pair of keys) {
    if (pair[1] === null) continue;
    try {
      await pair[0].consume(pair[1]);
      taken.push(pair);
    } catch (res) {
      // Not judged: the points already taken from the other keys go back.
      await giveBack();
      throw res instanceof RateLimiterRes ? tooMany(pair[0], res) : res;
    }
  }
  return { giveBack };
}

/** Spends one point when one is left: true; false (and nothing thrown) when none was. */
export async function takeIfLeft(limiter: RateLimiterStoreAbstract, key: string) {
  try {
    await limiter.consume(key);
    return true;
  } catch (res) {
    if (res instanceof RateLimiterRes) return false;
    throw res;
  }
}

/** Spends one point; throws a 429 when none was left. A null key is not limited. */
export async function consume(limiter: RateLimiterStoreAbstract, key: string | null, messageKey?: string) {
  if (key === null) return;
  try {
    await limiter.consume(key);
  } catch (res) {
    if (res instanceof RateLimiterRes) throw tooMany(limiter, res, messageKey);
    throw res;
  }
}

/**
 * Counts one write by a signed-in user. Call it in the service, before the change, from every
 * state-changing operation; past the limit it throws a 429 AppError with Retry-After.
 */
export async function consumeWrite(userId: string) {
  await consume(limiters.writeByUser, userId, "write_rate_limited");
}

/**
 * Deletes the counters whose window ended before `now` (the library ignores them and starts a
 * new window over them); a counter with no end (`expire` null) stays. Returns how many.
 */
export async function deleteExpiredRateLimits(now = Date.now()) {
  const result = await sql`DELETE FROM rate_limits WHERE expire < ${now}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
