import { createHash, randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { z } from "zod";
import { db, transaction } from "../../../db";
import type { Kysely } from "kysely";
import type { Database, UserRow } from "../../../db/schema";
import { AppError, parseInput } from "../platform/errors.server";
import { limiters, takeAttempt } from "../platform/rate-limit.server";
import { now } from "../platform/records.server";
import { createSession, endOtherSessions, hashToken, type Origin } from "./sessions.server";
import { currentSealPrefix, seal, unseal } from "./sealed-secrets.server";
import { assertPassword } from "./verification.server";

// Two-factor sign-in with an authenticator app (TOTP, RFC 6238; docs/product.md, "Contas e
// sessões"), on the otpauth library (docs/decisions/028-otpauth.md): SHA-1, 6 digits, 30-second
// steps, a code accepted one step early or late. A code is accepted only for a time step later
// than the last one accepted (two_factor.last_step, moved in the WHERE of the update: one winner),
// so the same code never works twice. Ten recovery codes, shown once, only their SHA-256 kept,
// each spent once. Wrong codes count against the account like wrong passwords (5 per 15 min).
// The secret is kept sealed (sealed-secrets.server.ts).

export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
export const TOTP_WINDOW = 1;
export const RECOVERY_CODES = 10;
const CHALLENGE_MINUTES = 10;
const ISSUER = "Freela";

const totpOf = (secret: string, label = "") =>
  new TOTP({
    issuer: ISSUER,
    label,
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
    secret: Secret.fromBase32(secret),
  });

/** The current code of a secret (at `timestamp`, in ms): what the authenticator app shows. */
export const totpCode = (secret: string, timestamp = Date.now()) => totpOf(secret).generate({ timestamp });

/** The time step a code belongs to, within ±1 step of `timestamp`; null when it matches none. */
export function matchStep(secret: string, code: string, timestamp = Date.now()): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp, window: TOTP_WINDOW });
  return delta === null ? null : Math.floor(timestamp / 1000 / TOTP_PERIOD) + delta;
}

export const codeField = z
  .string({ required_error: "two_factor_code_required", invalid_type_error: "two_factor_code_required" })
  .max(64, "two_factor_code_wrong")
  .transform((v) => v.replace(/[\s-]/g, "").toLowerCase())
  .refine((v) => v.length > 0, "two_factor_code_required");

const passwordField = z
  .string({ required_error: "password_required", invalid_type_error: "password_required" })
  .min(1, "password_required")
  .max(1_000, "password_required");

const isTotpCode = (code: string) => /^\d{6}$/.test(code);
const hashCode = (code: string) => createHash("sha256").update(code).digest("hex");

/** Ten codes like "k7m2q-9xw4p": 50 random bits each, in an alphabet without look-alikes. */
function newRecoveryCodes() {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  return Array.from({ length: RECOVERY_CODES }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

export type TwoFactorState = { enabled: boolean; pending: boolean; recovery_codes_left: number };

export async function twoFactorState(user: Pick<UserRow, "id">): Promise<TwoFactorState> {
  const row = await db
    .selectFrom("two_factor")
    .select("confirmed_at")
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  const left = row?.confirmed_at
    ? await db
        .selectFrom("recovery_codes")
        .select((eb) => eb.fn.countAll<string | number>().as("n"))
        .where("user_id", "=", user.id)
        .where("used_at", "is", null)
        .executeTakeFirstOrThrow()
    : { n: 0 };
  return {
    enabled: Boolean(row?.confirmed_at),
    pending: Boolean(row && !row.confirmed_at),
    recovery_codes_left: Number(left.n),
  };
}

export const isTwoFactorOn = async (userId: string) =>
  Boolean(
    await db
      .selectFrom("two_factor")
      .select("user_id")
      .where("user_id", "=", userId)
      .where("confirmed_at", "is not", null)
      .executeTakeFirst(),
  );

/** What the authenticator app needs: the secret (typed by hand), its otpauth:// URI and that URI as a QR image. */
export async function enrollmentOf(user: Pick<UserRow, "email">, secret: string) {
  const uri = totpOf(secret, user.email).toString();
  const svg = await QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { secret, otpauth_uri: uri, qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}` };
}

/** The enrollment under way (a secret not yet confirmed by a code), if any. */
export async function pendingEnrollment(user: Pick<UserRow, "id" | "email">) {
  const row = await db
    .selectFrom("two_factor")
    .select("secret")
    .where("user_id", "=", user.id)
    .where("confirmed_at", "is", null)
    .executeTakeFirst();
  return row ? enrollmentOf(user, unseal(row.secret, user.id)) : null;
}

/**
 * Starts turning two-factor on, after the current password: a new secret (replacing one not yet
 * confirmed), shown as a QR code and as text. Nothing changes at sign-in until a code confirms it.
 */
export async function startTwoFactor(user: UserRow, input: unknown) {
  const { password } = parseInput(z.object({ password: passwordField }), input, "two_factor_failed");
  await assertPassword(user, password);
  const secret = new Secret({ size: 20 }).base32;
  const sealed = seal(secret, user.id);
  const at = now();
  const started = await db
    .insertInto("two_factor")
    .values({ user_id: user.id, secret: sealed, confirmed_at: null, last_step: 0, created_at: at })
    .onConflict((oc) =>
      oc
        .column("user_id")
        .doUpdateSet({ secret: sealed, created_at: at, last_step: 0 })
        .where("two_factor.confirmed_at", "is", null),
    )
    .executeTakeFirst();
  if (Number(started.numInsertedOrUpdatedRows ?? 0) === 0) throw new AppError(409, "two_factor_already_on");
  return enrollmentOf(user, secret);
}

/**
 * Confirms the enrollment with a first code from the app: two-factor is on, ten recovery codes
 * are made (returned once; only their hashes stay) and every other session of the account ends.
 */
export async function confirmTwoFactor(user: UserRow, input: unknown, currentToken: string | null) {
  const { code } = parseInput(z.object({ code: codeField }), input, "two_factor_failed");
  const row = await db
    .selectFrom("two_factor")
    .select(["secret", "confirmed_at"])
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (!row) throw new AppError(409, "two_factor_not_started");
  if (row.confirmed_at) throw new AppError(409, "two_factor_already_on");
  const attempt = await takeAttempt([limiters.loginByEmail, user.email]);
  const step = isTotpCode(code) ? matchStep(unseal(row.secret, user.id), code) : null;
  if (step === null) throw new AppError(422, "two_factor_failed", { code: "two_factor_code_wrong" });
  await attempt.giveBack();
  const codes = newRecoveryCodes();
  const at = now();
  await transaction(async (trx) => {
    const confirmed = await trx
      .updateTable("two_factor")
      .set({ confirmed_at: at, last_step: step })
      .where("user_id", "=", user.id)
      .where("confirmed_at", "is", null)
      .where("secret", "=", row.secret)
      .executeTakeFirst();
    if (Number(confirmed.numUpdatedRows) === 0) throw new AppError(409, "two_factor_already_on");
    await replaceRecoveryCodes(trx, user.id, codes, at);
  });
  await endOtherSessions(user, currentToken);
  return { recovery_codes: codes };
}

/** The account's recovery codes become `codes` (their hashes): every earlier one stops working. */
async function replaceRecoveryCodes(trx: Kysely<Database>, userId: string, codes: string[], at: string) {
  await trx.deleteFrom("recovery_codes").where("user_id", "=", userId).execute();
  await trx
    .insertInto("recovery_codes")
    .values(
      codes.map((c) => ({ user_id: userId, code_hash: hashCode(c.replace("-", "")), used_at: null, created_at: at })),
    )
    .execute();
}

/**
 * A second factor of the account: a current code of the app (for a time step later than the last
 * one accepted) or an unused recovery code, spent by this call. False when it is neither.
 */
async function spendSecondFactor(userId: string, code: string, timestamp = Date.now()) {
  if (isTotpCode(code)) {
    const row = await db
      .selectFrom("two_factor")
      .select(["secret"])
      .where("user_id", "=", userId)
      .where("confirmed_at", "is not", null)
      .executeTakeFirst();
    const step = row ? matchStep(unseal(row.secret, userId), code, timestamp) : null;
    if (step === null) return false;
    const moved = await db
      .updateTable("two_factor")
      .set({ last_step: step })
      .where("user_id", "=", userId)
      .where("last_step", "<", step)
      .executeTakeFirst();
    return Number(moved.numUpdatedRows) === 1;
  }
  const spent = await db
    .updateTable("recovery_codes")
    .set({ used_at: now() })
    .where("user_id", "=", userId)
    .where("code_hash", "=", hashCode(code))
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(spent.numUpdatedRows) === 1;
}

/**
 * Checks a second factor for `user`, counting a wrong one like a wrong password: the attempt is
 * taken before the code is judged (a burst has at most the limit judged) and given back when right.
 */
export async function assertSecondFactor(user: Pick<UserRow, "id" | "email">, code: string, errorKey: string) {
  const attempt = await takeAttempt([limiters.loginByEmail, user.email]);
  if (!(await spendSecondFactor(user.id, code))) throw new AppError(422, errorKey, { code: "two_factor_code_wrong" });
  await attempt.giveBack();
}

/**
 * Ten new recovery codes, after the current password and a code (of the app, or a recovery code):
 * shown once (returned here; only their hashes stay), and every earlier code stops working.
 * 409 when two-factor is not on.
 */
export async function regenerateRecoveryCodes(user: UserRow, input: unknown) {
  const { password, code } = parseInput(
    z.object({ password: passwordField, code: codeField }),
    input,
    "recovery_codes_failed",
  );
  if (!(await isTwoFactorOn(user.id))) throw new AppError(409, "two_factor_not_on");
  await assertPassword(user, password);
  await assertSecondFactor(user, code, "recovery_codes_failed");
  const codes = newRecoveryCodes();
  await transaction((trx) => replaceRecoveryCodes(trx, user.id, codes, now()));
  return { recovery_codes: codes };
}

/** Turns two-factor off: the current password and a code (of the app, or a recovery code). */
export async function disableTwoFactor(user: UserRow, input: unknown) {
  const { password, code } = parseInput(
    z.object({ password: passwordField, code: codeField }),
    input,
    "two_factor_off_failed",
  );
  if (!(await isTwoFactorOn(user.id))) throw new AppError(409, "two_factor_not_on");
  await assertPassword(user, password);
  await assertSecondFactor(user, code, "two_factor_off_failed");
  await transaction(async (trx) => {
    await trx.deleteFrom("recovery_codes").where("user_id", "=", user.id).execute();
    await trx.deleteFrom("two_factor").where("user_id", "=", user.id).execute();
  });
}

/** The step after a right password, for an account with two-factor on: a token for the second call. */
export async function createLoginChallenge(userId: string) {
  const token = randomBytes(32).toString("base64url");
  const at = new Date();
  const expiresAt = new Date(at.getTime() + CHALLENGE_MINUTES * 60_000).toISOString();
  await db
    .insertInto("login_challenges")
    .values({ id: hashToken(token), user_id: userId, expires_at: expiresAt, created_at: at.toISOString() })
    .execute();
  return { challenge: token, expires_at: expiresAt };
}

const secondStepSchema = z.object({
  challenge: z
    .string({ required_error: "two_factor_challenge_invalid", invalid_type_error: "two_factor_challenge_invalid" })
    .min(1, "two_factor_challenge_invalid")
    .max(200, "two_factor_challenge_invalid"),
  code: codeField,
});

/**
 * The second call of a sign-in with two-factor: the challenge of the first call and a code.
 * Right: the challenge is spent and a session opens (a sign-in notice for a new device, as
 * always). Wrong: 422, counted against the account; an expired or spent challenge: 401 (sign in
 * again from the password).
 */
export async function completeTwoFactorLogin(input: unknown, origin: Origin = {}) {
  const { challenge, code } = parseInput(secondStepSchema, input, "two_factor_failed");
  const id = hashToken(challenge);
  const found = await db
    .selectFrom("login_challenges")
    .innerJoin("users", "users.id", "login_challenges.user_id")
    .selectAll("users")
    .where("login_challenges.id", "=", id)
    .where("login_challenges.expires_at", ">", now())
    .executeTakeFirst();
  if (!found) throw new AppError(401, "two_factor_challenge_invalid");
  await assertSecondFactor(found, code, "two_factor_failed");
  const spent = await db.deleteFrom("login_challenges").where("id", "=", id).executeTakeFirst();
  if (Number(spent.numDeletedRows) === 0) throw new AppError(401, "two_factor_challenge_invalid");
  const session = await createSession(found.id, origin, { signIn: true });
  return { user: found as UserRow, ...session, twoFactor: null };
}

/**
 * Re-seals under the current key every two-factor secret kept in clear (by a version before
 * sealing) or sealed under another known key; run by `npm run migrate`. Each row is written only
 * over the value read (the WHERE), so a secret replaced meanwhile is left to its new value.
 * Answers how many were re-sealed and how many no known key opens (left as they are).
 */
export async function resealTwoFactorSecrets(database: Kysely<Database> = db) {
  const rows = await database
    .selectFrom("two_factor")
    .select(["user_id", "secret"])
    .where("secret", "not like", `${currentSealPrefix()}%`)
    .execute();
  let resealed = 0;
  let unreadable = 0;
  for (const row of rows) {
    let plain: string;
    try {
      plain = unseal(row.secret, row.user_id);
    } catch {
      unreadable++;
      continue;
    }
    const written = await database
      .updateTable("two_factor")
      .set({ secret: seal(plain, row.user_id) })
      .where("user_id", "=", row.user_id)
      .where("secret", "=", row.secret)
      .executeTakeFirst();
    resealed += Number(written.numUpdatedRows);
  }
  return { resealed, unreadable };
}
