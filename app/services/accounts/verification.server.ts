import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import { z } from "zod";
import { config } from "~/config.server";
import { emailField } from "~/lib/schemas";
import { db, transaction } from "../../../db";
import { isUniqueViolation } from "../../../db/dialect";
import type { Database, UserRow } from "../../../db/schema";
import { queueAccountEmail } from "../messaging/account-email.server";
import { AppError, parseInput } from "../platform/errors.server";
import { undeliverableSince } from "../platform/email-suppressions.server";
import { consume, limiters, takeAttempt } from "../platform/rate-limit.server";
import { now } from "../platform/records.server";
import { emailVerifiedEnough } from "../platform/roles.server";
import { endOneTimeLinks } from "./one-time-links.server";
import { verifyPassword } from "./passwords.server";
import { hashToken } from "./sessions.server";

// Verified e-mail (docs/product.md, "Contas e sessões"). A new account is unverified until its
// owner opens the single-use link (24 h) sent to its address; meanwhile it signs in and browses
// but does not publish, apply, message or invite (roles.server.ts, assertVerifiedEmail), unless
// EMAIL_VERIFICATION=off. A new address is confirmed the same way before it replaces the old
// one, which is told. Links carry a random token; only its SHA-256 is stored.

export const VERIFY_LINK_HOURS = 24;

/** Whether accounts must confirm their e-mail before writing to others (EMAIL_VERIFICATION). */
export const verificationRequired = () => config.EMAIL_VERIFICATION === "required";

/** Whether the banner asking to confirm the e-mail is due for this user. */
export const needsVerification = (user: Pick<UserRow, "email_verified_at">) => !emailVerifiedEnough(user);

async function newLink(
  trx: Kysely<Database>,
  user: Pick<UserRow, "id">,
  purpose: "verify" | "change",
  email: string,
  at: string,
) {
  const token = randomBytes(32).toString("base64url");
  // A new link replaces the earlier ones of the same purpose: only the latest e-mail works.
  await trx
    .updateTable("email_tokens")
    .set({ used_at: at })
    .where("user_id", "=", user.id)
    .where("purpose", "=", purpose)
    .where("used_at", "is", null)
    .execute();
  await trx
    .insertInto("email_tokens")
    .values({
      id: hashToken(token),
      user_id: user.id,
      purpose,
      email,
      expires_at: new Date(Date.parse(at) + VERIFY_LINK_HOURS * 3_600_000).toISOString(),
      used_at: null,
      created_at: at,
    })
    .execute();
  return `${config.APP_URL}/verify-email?token=${encodeURIComponent(token)}`;
}

/**
 * Queues the confirmation link of the account's address, inside the caller's transaction
 * (registration). Nothing is sent when confirmation is off.
 */
export async function queueVerificationEmail(trx: Kysely<Database>, user: Pick<UserRow, "id" | "email">, at = now()) {
  if (!verificationRequired()) return;
  const link = await newLink(trx, user, "verify", user.email, at);
  await queueAccountEmail(
    trx,
    user.id,
    "email_verification",
    { params: { link, hours: String(VERIFY_LINK_HOURS) } },
    at,
  );
}

/** "Reenviar e-mail": a new link (the earlier ones stop working), a few per hour. */
export async function resendVerification(user: UserRow) {
  if (user.email_verified_at) throw new AppError(409, "email_already_verified");
  await consume(limiters.verifyResendByUser, user.id, "verification_resend_limited");
  await transaction(async (trx) => {
    const link = await newLink(trx, user, "verify", user.email, now());
    await queueAccountEmail(trx, user.id, "email_verification", {
      params: { link, hours: String(VERIFY_LINK_HOURS) },
    });
  });
}

const tokenSchema = z.object({
  token: z
    .string({ required_error: "verification_invalid", invalid_type_error: "verification_invalid" })
    .min(1, "verification_invalid")
    .max(200, "verification_invalid"),
});

export type Verified = { user: UserRow; purpose: "verify" | "change" };

/**
 * Opens a link: the account's address is confirmed, or the new address replaces the old one (which
 * is told). Whoever holds the link may open it, signed in or not; but a link opened while signed
 * in as another account is refused (403) and stays unused. An unknown, used or expired link is a
 * 422 that says which; two opens at once: one wins, the other finds it used.
 */
export async function verifyEmail(input: unknown, signedIn: Pick<UserRow, "id"> | null = null): Promise<Verified> {
  const { token } = parseInput(tokenSchema, input, "verification_invalid");
  const id = hashToken(token);
  const found = await db.selectFrom("email_tokens").selectAll().where("id", "=", id).executeTakeFirst();
  if (!found) throw new AppError(422, "verification_invalid");
  if (signedIn && signedIn.id !== found.user_id) throw new AppError(403, "verification_other_account");
  const at = now();
  if (found.used_at) throw new AppError(422, "verification_used");
  if (found.expires_at <= at) throw new AppError(422, "verification_expired");
  try {
    return await transaction(async (trx) => {
      const spent = await trx
        .updateTable("email_tokens")
        .set({ used_at: at })
        .where("id", "=", id)
        .where("used_at", "is", null)
        .where("expires_at", ">", at)
        .returning(["user_id", "purpose", "email"])
        .executeTakeFirst();
      if (!spent) throw new AppError(422, "verification_used");
      if (spent.purpose === "verify") {
        // The link confirms the address it was sent to, only while it is still the account's.
        const user = await trx
          .updateTable("users")
          .set({ email_verified_at: at, updated_at: at })
          .where("id", "=", spent.user_id)
          .where("email", "=", spent.email)
          .returningAll()
          .executeTakeFirst();
        if (!user) throw new AppError(422, "verification_invalid");
        return { user, purpose: "verify" as const };
      }
      const before = await trx
        .selectFrom("users")
        .select(["email"])
        .where("id", "=", spent.user_id)
        .executeTakeFirstOrThrow();
      const user = await trx
        .updateTable("users")
        // The notice of an undeliverable address ends with it (unless the new one is suppressed too).
        .set({
          email: spent.email,
          email_verified_at: at,
          email_undeliverable_at: undeliverableSince(trx, spent.email),
          updated_at: at,
        })
        .where("id", "=", spent.user_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      // Links sent under the old address (a password reset, another change) end here.
      await endOneTimeLinks(trx, user.id, at);
      await queueAccountEmail(trx, user.id, "email_changed", { to: before.email, params: { email: spent.email } }, at);
      return { user, purpose: "change" as const };
    });
  } catch (error) {
    // The new address was taken by another account after the link was sent.
    if (isUniqueViolation(error, "users")) throw new AppError(409, "email_taken");
    throw error;
  }
}

const changeSchema = z.object({
  email: emailField,
  password: z
    .string({ required_error: "password_required", invalid_type_error: "password_required" })
    .min(1, "password_required")
    .max(1_000, "password_required"),
});

/**
 * Asks to change the account's address: after the current password, a link goes to the new
 * address; nothing changes until it is opened (verifyEmail), and then the old address is told.
 * Wrong passwords count against the account like failed sign-ins; requests, a few per hour.
 */
export async function requestEmailChange(user: UserRow, input: unknown) {
  const { email, password } = parseInput(changeSchema, input, "email_change_failed");
  if (email === user.email) throw new AppError(422, "email_change_failed", { email: "email_change_same" });
  await assertPassword(user, password);
  await consume(limiters.verifyResendByUser, user.id, "verification_resend_limited");
  const taken = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
  if (taken) throw new AppError(422, "email_change_failed", { email: "email_taken" });
  await transaction(async (trx) => {
    const link = await newLink(trx, user, "change", email, now());
    await queueAccountEmail(trx, user.id, "email_change_verification", {
      to: email,
      params: { link, email, hours: String(VERIFY_LINK_HOURS) },
    });
  });
  return { email };
}

/**
 * The current password, checked for a sensitive change (e-mail, password, two-factor, deletion).
 * Failures count against the account's sign-in limit: 5 per 15 minutes, then 429. The attempt is
 * taken before the password is judged (a burst has at most 5 judged) and given back when right.
 */
export async function assertPassword(user: Pick<UserRow, "email" | "password_hash">, password: string) {
  const attempt = await takeAttempt([limiters.loginByEmail, user.email]);
  if (!(await verifyPassword(password, user.password_hash))) {
    throw new AppError(422, "password_check_failed", { password: "password_wrong" });
  }
  await attempt.giveBack();
}
