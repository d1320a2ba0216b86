import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "./errors.server";

// In-process limits: one server process owns the SQLite file, so memory is the shared state.
export const limiters = {
  /** Failed logins per e-mail. */
  loginByEmail: new RateLimiterMemory({ keyPrefix: "login_email", points: 5, duration: 15 * 60 }),
  /** Failed logins per client address. */
  loginByIp: new RateLimiterMemory({ keyPrefix: "login_ip", points: 50, duration: 15 * 60 }),
  registerByIp: new RateLimiterMemory({ keyPrefix: "register_ip", points: 20, duration: 60 * 60 }),
  resetByEmail: new RateLimiterMemory({ keyPrefix: "reset_email", points: 3, duration: 60 * 60 }),
  resetByIp: new RateLimiterMemory({ keyPrefix: "reset_ip", points: 20, duration: 60 * 60 }),
};

/**
 * The client address. remix-serve does not hand the socket to Remix, so behind a proxy the
 * first X-Forwarded-For entry is used; without one every client shares a single bucket.
 */
export function clientIp(request: Request) {
  return request.headers.get("X-Forwarded-For")?.split(",")[0]?.trim() || "local";
}

function tooMany(res: RateLimiterRes): AppError {
  const seconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new AppError(429, "rate_limited", undefined, { minutes: Math.ceil(seconds / 60) }, {
    "Retry-After": String(seconds),
  });
}

/** Throws a 429 when the key has no points left, without spending one. */
export async function assertNotLimited(limiter: RateLimiterMemory, key: string) {
  const res = await limiter.get(key);
  if (res && res.remainingPoints <= 0) throw tooMany(res);
}

/** Spends one point; throws a 429 when none was left. */
export async function consume(limiter: RateLimiterMemory, key: string) {
  try {
    await limiter.consume(key);
  } catch (res) {
    if (res instanceof RateLimiterRes) throw tooMany(res);
    throw res;
  }
}
