import { sql } from "kysely";
import { randomBytes, randomUUID } from "node:crypto";
import { config } from "~/config.server";
import type { z } from "zod";
import {
  checkFields,
  emailField,
  loginSchema,
  profileSchema,
  registerSchema,
  resetPasswordSchema,
} from "~/lib/schemas";
import { transaction, db } from "../../../db";
import { engine } from "../../../db/dialect";
import { directoryColumns } from "~/lib/directory";
import type { Lng } from "~/lib/i18n";
import type { UserRow } from "../../../db/schema";
import { AppError, fieldErrorsOf, oneOnly, parseInput } from "../platform/errors.server";
import { tellPasswordChanged } from "./password-change.server";
import { endOneTimeLinks } from "./one-time-links.server";
import { accountEmailRow } from "../messaging/account-email.server";
import { hashPassword, verifyPassword } from "./passwords.server";
import { consume, consumeWrite, limiters, takeAttempt } from "../platform/rate-limit.server";
import { createSession, hashToken } from "./sessions.server";
import { deletePhoto, photoProblems, savePhoto } from "../platform/uploads.server";
import { parseTags } from "./users.server";
import { queueVerificationEmail } from "./verification.server";
import { createLoginChallenge, isTwoFactorOn } from "./two-factor.server";
import { recordTermsAcceptance, termsVersion } from "./terms.server";
import { metrics } from "../platform/metrics.server";

const RESET_TTL_MS = 60 * 60 * 1000;

// Hashing runs in worker threads (passwords.server.ts), so a burst of logins does not take the
// event loop from every other request.
export { hashPassword };

let dummyHash: Promise<string> | undefined;
/** Compared against when the e-mail is unknown, so both answers take the same time. */
const timingDummy = () => (dummyHash ??= hashPassword(randomBytes(16).toString("hex")));

async function emailTaken(email: string) {
  return Boolean(await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst());
}

/** Who is asking, as the web layer reads it: the address (behind a trusted proxy) and the language picked. */
export type Client = { ip: string | null; place?: string | null; locale?: Lng | null; userAgent?: string | null };

const NOBODY: Client = { ip: null, locale: null };

export async function registerUser(input: unknown, client: Client = NOBODY) {
  const parsed = registerSchema.safeParse(input);
  if (!parsed.success) {
    // Report a taken e-mail together with the other field errors, so the user fixes all at once.
    const errors = fieldErrorsOf(parsed.error);
    const email = emailField.safeParse((input as Record<string, unknown> | null)?.email);
    if (!errors.email && email.success && (await emailTaken(email.data))) errors.email = "email_taken";
    throw new AppError(422, "register_failed", errors);
  }
  const data = parsed.data;
  await consume(limiters.registerByIp, client.ip);
  const now = new Date().toISOString();
  const user: UserRow = {
    id: randomUUID(),
    email: data.email,
    password_hash: await hashPassword(data.password),
    public_profile: 1,
    display_name: data.display_name ?? null,
    full_name: data.full_name,
    account_type: data.account_type,
    bio: "",
    skills: "[]",
    photo_path: null,
    city: null,
    remote: 1,
    company_name: null,
    company_cnpj: null,
    ...directoryColumns({
      full_name: data.full_name,
      display_name: data.display_name ?? null,
      bio: "",
      skills: [],
      city: null,
    }),
    rating_count: 0,
    rating_sum: 0,
    storage_bytes: 0,
    // The language picked before signing up (the lng cookie), for the user's e-mails.
    locale: client.locale ?? null,
    suspended_until: null,
    banned_at: null,
    sanction_reason: null,
    profile_hidden_at: null,
    profile_hidden_reason: null,
    hidden_photo_path: null,
    email_undeliverable_at: null,
    // Confirmed by the link e-mailed below (verification.server.ts).
    email_verified_at: null,
    // Registering accepts the current terms and privacy policy (the form says so), kept as a record.
    terms_version: termsVersion(),
    deleted_at: null,
    created_at: now,
    updated_at: now,
  };
  await oneOnly("users", new AppError(422, "register_failed", { email: "email_taken" }), () =>
    transaction(async (trx) => {
      await trx.insertInto("users").values(user).execute();
      await recordTermsAcceptance(trx, user.id, termsVersion(), client, now);
      await queueVerificationEmail(trx, user, now);
    }),
  );
  return user;
}

/**
 * Registration from the site's form: the account, then a session for it at once (the sign-up
 * signs in; the e-mail is confirmed later by its link). The API's registration stays without a
 * session (its clients sign in with POST /api/login). Sessions opened here are bounded by the
 * registration's own limit (registerByIp, taken before the account is written): a refused or
 * limited registration opens none. A new account has no device to tell its owner about.
 */
export async function registerAndSignIn(input: unknown, client: Client = NOBODY) {
  const user = await registerUser(input, client);
  const session = await createSession(user.id, { ip: client.ip, userAgent: client.userAgent });
  return { user, ...session };
}

/**
 * Checks the credentials and opens a session. Failures are rate limited by e-mail and address.
 * A device new to the account gets its owner a sign-in notice (sessions.server.ts). An account
 * with two-factor on gets no session yet but `twoFactor`: the challenge of the second step.
 */
export async function login(input: unknown, { ip, place, userAgent }: Client = NOBODY) {
  const { email, password } = parseInput(loginSchema, input, "login_failed");
  // The attempt is taken before the password is judged (rate-limit.server.ts, takeAttempt).
  const attempt = await takeAttempt([limiters.loginByEmail, email], [limiters.loginByIp, ip]);
  const user = await db
    .selectFrom("users")
    .selectAll()
    .where("email", "=", email)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  const ok = await verifyPassword(password, user?.password_hash ?? (await timingDummy()));
  if (!user || !ok) {
    metrics.loginFailures.inc();
    throw new AppError(401, "invalid_credentials");
  }
  // A right password does not count; the wrong ones before it do, until their window ends.
  await attempt.giveBack();
  // Only someone who knows the password learns that the account is suspended, and until when.
  if (user.banned_at) throw new AppError(403, "account_banned");
  if (user.suspended_until && user.suspended_until > new Date().toISOString()) {
    throw new AppError(403, "account_suspended", undefined, { until: new Date(user.suspended_until) });
  }
  // With two-factor on, a right password leads to the second step (two-factor.server.ts), whose
  // wrong codes count against the same limit as wrong passwords.
  if (await isTwoFactorOn(user.id)) {
    return { user, token: null, expiresAt: null, twoFactor: await createLoginChallenge(user.id) } as const;
  }
  // A sign-in from a device the account has not used before is e-mailed to its owner.
  const session = await createSession(user.id, { ip, place, userAgent }, { signIn: true });
  return { user, ...session, twoFactor: null } as const;
}

export type ProfileInput = z.input<typeof profileSchema>;

/**
 * Updates the fields the input carries (a field left out stays as it is); a new photo is checked
 * by content and replaces the old one. The directory's search columns follow the profile.
 */
export async function updateProfile(user: UserRow, input: unknown, photo?: Blob | null) {
  await consumeWrite(user.id);
  const checked = checkFields(profileSchema, input);
  if (checked.data === null) {
    // The photo's problem, if any, with the other fields'.
    const errors = { ...(await photoProblems(photo, "photo")), ...checked.errors };
    throw new AppError(422, "profile_update_failed", errors);
  }
  const data = checked.data;
  const photoPath = photo && photo.size > 0 ? await savePhoto(photo) : undefined;
  const updated = await transaction(async (trx) => {
    const current = await trx
      .selectFrom("users")
      .selectAll()
      .where("id", "=", user.id)
      .$if(engine === "postgres", (qb) => qb.forUpdate())
      .executeTakeFirstOrThrow();
    const next = {
      full_name: data.full_name ?? current.full_name,
      display_name: data.display_name === undefined ? current.display_name : data.display_name,
      bio: data.bio ?? current.bio,
      skills: data.skills ?? parseTags(current.skills),
      city: data.city === undefined ? current.city : data.city,
    };
    return trx
      .updateTable("users")
      .set({
        ...next,
        skills: JSON.stringify(next.skills),
        ...(data.remote === undefined ? {} : { remote: data.remote ? 1 : 0 }),
        ...(data.public_profile === undefined ? {} : { public_profile: data.public_profile ? 1 : 0 }),
        // A company is a merchant's: a freelancer's form has no such fields, and an API client's are ignored.
        ...(current.account_type === "merchant" && data.company_name !== undefined
          ? { company_name: data.company_name }
          : {}),
        ...(current.account_type === "merchant" && data.company_cnpj !== undefined
          ? { company_cnpj: data.company_cnpj }
          : {}),
        ...directoryColumns(next),
        ...(photoPath ? { photo_path: photoPath } : {}),
        updated_at: new Date().toISOString(),
      })
      .where("id", "=", user.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  if (photoPath) await deletePhoto(user.photo_path);
  return updated;
}

/**
 * Starts a password reset. The answer never says whether the e-mail exists, by what it says or
 * by how long it takes: the same statements run either way (each INSERT selects the account by
 * its address, and writes nothing when there is none), and the link goes through the outbox like
 * every other e-mail (sent by the drain, retried if SMTP fails), never within the request. The
 * link is built from APP_URL only: a request's Host (which anyone may set) never goes into an
 * e-mail.
 */
export async function requestPasswordReset(email: string, client: Client = NOBODY) {
  await consume(limiters.resetByEmail, email);
  await consume(limiters.resetByIp, client.ip);
  const token = randomBytes(32).toString("base64url");
  const at = new Date();
  const created = at.toISOString();
  const expires = new Date(at.getTime() + RESET_TTL_MS).toISOString();
  const link = `${config.APP_URL}/reset-password?token=${encodeURIComponent(token)}`;
  const mail = accountEmailRow("password_reset", { params: { link } }, created);
  await transaction(async (trx) => {
    const account = trx.selectFrom("users").where("email", "=", email).where("deleted_at", "is", null);
    await trx
      .insertInto("password_resets")
      .columns(["id", "user_id", "expires_at", "created_at"])
      .expression(
        account.select((eb) => [
          eb.val(hashToken(token)).as("id"),
          "users.id",
          eb.val(expires).as("expires_at"),
          eb.val(created).as("created_at"),
        ]),
      )
      .execute();
    await trx
      .insertInto("outbox")
      .columns(["id", "user_id", "kind", "status", "next_attempt_at", "created_at", "payload"])
      .expression(
        account.select((eb) => [
          eb.val(mail.id).as("id"),
          "users.id",
          eb.val(mail.kind).as("kind"),
          eb.val(mail.status).as("status"),
          eb.val(mail.next_attempt_at).as("next_attempt_at"),
          eb.val(mail.created_at).as("created_at"),
          eb.val(mail.payload).as("payload"),
        ]),
      )
      .execute();
  });
}

export async function findValidReset(token: string) {
  return db
    .selectFrom("password_resets")
    .selectAll()
    .where("id", "=", hashToken(token))
    .where("used_at", "is", null)
    .where("expires_at", ">", new Date().toISOString())
    .executeTakeFirst();
}

/**
 * Sets the new password, spends the token and every other unused one of the account
 * (one-time-links.server.ts), ends every session of the user and tells the address
 * (like a change made while signed in). The link reached
 * its owner at the account's address, so it confirms that address too (an operator made by
 * operator:create sets a password this way and never sees the confirmation banner).
 */
export async function resetPassword(input: unknown) {
  const { token, password } = parseInput(resetPasswordSchema, input);
  const passwordHash = await hashPassword(password);
  const now = new Date().toISOString();
  const userId = await transaction(async (trx) => {
    const reset = await trx
      .updateTable("password_resets")
      .set({ used_at: now })
      .where("id", "=", hashToken(token))
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .returning("user_id")
      .executeTakeFirst();
    if (!reset) throw new AppError(422, "validation_failed", { token: "reset_invalid" });
    await trx
      .updateTable("users")
      .set({
        password_hash: passwordHash,
        email_verified_at: sql<string>`coalesce(email_verified_at, ${now})`,
        updated_at: now,
      })
      .where("id", "=", reset.user_id)
      .execute();
    await trx.deleteFrom("sessions").where("user_id", "=", reset.user_id).execute();
    // Every other reset link of the account (and its pending address change) ends with this one.
    await endOneTimeLinks(trx, reset.user_id, now);
    await tellPasswordChanged(trx, reset.user_id, now);
    return reset.user_id;
  });
  return userId;
}
