import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { config } from "~/config.server";
import { AppError } from "./errors.server";

export const WRITES_PER_MINUTE = 120;

// In-process limits: one server process owns the SQLite file, so memory is the shared state.
export const limiters = {
  /** Failed logins per e-mail. */
  loginByEmail: new RateLimiterMemory({ keyPrefix: "login_email", points: 5, duration: 15 * 60 }),
  /** Failed logins per client address. */
  loginByIp: new RateLimiterMemory({ keyPrefix: "login_ip", points: 50, duration: 15 * 60 }),
  registerByIp: new RateLimiterMemory({ keyPrefix: "register_ip", points: 20, duration: 60 * 60 }),
  resetByEmail: new RateLimiterMemory({ keyPrefix: "reset_email", points: 3, duration: 60 * 60 }),
  resetByIp: new RateLimiterMemory({ keyPrefix: "reset_ip", points: 20, duration: 60 * 60 }),
  /** Writes per signed-in user: generous for people, a ceiling for runaway scripts. */
  writeByUser: new RateLimiterMemory({ keyPrefix: "write_user", points: WRITES_PER_MINUTE, duration: 60 }),
};

/**
 * The client address, or null when it is unknown. remix-serve does not hand the socket to
 * Remix, so the address can only come from a proxy: with TRUST_PROXY set, the last
 * X-Forwarded-For entry (the one the proxy appended; earlier ones are the client's own words).
 * Without a trusted proxy the header is ignored — any client could write it — and the
 * per-address limits are skipped rather than shared by everyone; the per-e-mail and per-user
 * limits still hold.
 */
export function clientIp(request: Request): string | null {
  if (!config.TRUST_PROXY) return null;
  return request.headers.get("X-Forwarded-For")?.split(",").pop()?.trim() || null;
}

function tooMany(res: RateLimiterRes, key = "rate_limited"): AppError {
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new AppError(429, key, undefined, { minutes: Math.ceil(seconds / 60), seconds }, {
    "Retry-After": String(seconds),
  });
}

/** Throws a 429 when the key has no points left, without spending one. A null key is not limited. */
export async function assertNotLimited(limiter: RateLimiterMemory, key: string | null) {
  if (key === null) return;
  const res = await limiter.get(key);
  if (res && res.remainingPoints <= 0) throw tooMany(res);
}

/** Spends one point; throws a 429 when none was left. A null key is not limited. */
export async function consume(limiter: RateLimiterMemory, key: string | null, messageKey?: string) {
  if (key === null) return;
  try {
    await limiter.consume(key);
  } catch (res) {
    if (res instanceof RateLimiterRes) throw tooMany(res, messageKey);
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
