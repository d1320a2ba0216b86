import { createHash } from "node:crypto";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { z } from "zod";
import { config } from "~/config.server";
import { line } from "~/lib/schemas";
import { db, transaction } from "../../../db";
import type { UserRow } from "../../../db/schema";
import { emailTime, queueAccountEmail } from "../messaging/account-email.server";
import { AppError, oneOnly, parseInput } from "../platform/errors.server";
import { consume, limiters } from "../platform/rate-limit.server";
import { now } from "../platform/records.server";
import { deviceOf } from "./devices";
import { assertFreshProof } from "./fresh-proof.server";
import { createSession, hashToken, type Origin } from "./sessions.server";

// Passkeys (WebAuthn; docs/product.md, "Contas e sessões"), on @simplewebauthn/server
// (docs/decisions/029-simplewebauthn.md). The relying party is the site of APP_URL only (its host
// name is the rpID, its origin the only origin accepted), never a request's Host. Each ceremony
// starts with a challenge handed out here and kept server-side (its SHA-256, 5 minutes, single
// use: it is deleted when a response names it, whatever the outcome); a registration's challenge
// belongs to the account that asked for it. Sign-in is usernameless: the passkey is discoverable
// (a resident key) and names the account itself. A sign-in with a passkey counts as both factors
// (no TOTP step) and opens the same kind of session as the password, marked with the passkey.

export const CHALLENGE_MINUTES = 5;
export const PASSKEYS_MAX = 10;
const RP_NAME = "Freela";
const NAME_MAX = 60;

/** The relying party: APP_URL's host name and origin, nothing from the request. */
export function relyingParty() {
  const url = new URL(config.APP_URL);
  return { rpID: url.hostname, origin: url.origin };
}

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const userHandleOf = (userId: string) => Buffer.from(userId, "utf8");

async function storeChallenge(challenge: string, purpose: "register" | "sign_in", userId: string | null) {
  const at = new Date();
  // Expired challenges of anyone go with each new one: the table holds only live ones.
  await db.deleteFrom("webauthn_challenges").where("expires_at", "<", at.toISOString()).execute();
  await db
    .insertInto("webauthn_challenges")
    .values({
      id: sha256(challenge),
      purpose,
      user_id: userId,
      expires_at: new Date(at.getTime() + CHALLENGE_MINUTES * 60_000).toISOString(),
      created_at: at.toISOString(),
    })
    .execute();
}

/** Spends a challenge: true only for a live one of this purpose (and account), once. */
async function spendChallenge(challenge: string, purpose: "register" | "sign_in", userId: string | null) {
  const spent = await db
    .deleteFrom("webauthn_challenges")
    .where("id", "=", sha256(challenge))
    .where("purpose", "=", purpose)
    .where("expires_at", ">", now())
    .where((eb) => (userId === null ? eb("user_id", "is", null) : eb("user_id", "=", userId)))
    .executeTakeFirst();
  return Number(spent.numDeletedRows) === 1;
}

// What a browser's response must look like before the library reads it: the shape only (the
// library checks the content); anything else is a 422, never a crash.
const b64url = z
  .string()
  .max(20_000)
  .regex(/^[A-Za-z0-9_-]*={0,2}$/);
/** A credential as the browser returns it: the same envelope around either ceremony's response. */
const credential = <R extends z.ZodRawShape>(response: R) =>
  z.object({
    id: b64url.min(1),
    rawId: b64url.min(1),
    type: z.literal("public-key"),
    clientExtensionResults: z.record(z.unknown()).default({}),
    authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
    response: z.object(response),
  });
const registrationSchema = credential({
  clientDataJSON: b64url.min(1),
  attestationObject: b64url.min(1),
  transports: z.array(z.string().max(40)).max(10).optional(),
  authenticatorData: b64url.optional(),
  publicKey: b64url.optional(),
  publicKeyAlgorithm: z.number().int().optional(),
});
const authenticationSchema = credential({
  clientDataJSON: b64url.min(1),
  authenticatorData: b64url.min(1),
  signature: b64url.min(1),
  userHandle: b64url.optional(),
});

/** The browser's answer: an object (the API) or its JSON text (a form); one message for any flaw. */
const responseField = <S extends z.ZodTypeAny>(schema: S) =>
  z.unknown().transform((value, ctx): z.output<S> => {
    let parsed: unknown = value;
    if (typeof value === "string") {
      try {
        parsed = JSON.parse(value);
      } catch {
        parsed = undefined;
      }
    }
    const result = schema.safeParse(parsed);
    if (result.success) return result.data as z.output<S>;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "passkey_response_invalid" });
    return z.NEVER;
  });

const nameField = line("passkey_name_length", 1, NAME_MAX);
/** A name given when adding: optional (an empty one means "none"). */
const optionalName = z.preprocess((v) => (v === "" || v === null ? undefined : v), nameField.optional());

export type PasskeyView = { id: string; name: string; created_at: string; last_used_at: string | null };

/** The account's passkeys, oldest first. */
export async function listPasskeys(user: Pick<UserRow, "id">): Promise<PasskeyView[]> {
  return db
    .selectFrom("passkeys")
    .select(["id", "name", "created_at", "last_used_at"])
    .where("user_id", "=", user.id)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/**
 * What the browser needs to create a passkey for this account (navigator.credentials.create),
 * after a fresh proof (`{ password, code? }`: the current password, and a code when two-factor is
 * on; fresh-proof.server.ts), so that a session alone cannot add its own way in: a discoverable
 * credential, the account's passkeys excluded (the same authenticator is not registered twice),
 * no attestation asked for. Its challenge (5 minutes, once, this account's) is what carries the
 * proof to addPasskey. 409 past PASSKEYS_MAX; 422 without the proof.
 */
export async function passkeyRegistrationOptions(user: UserRow, proof: unknown) {
  const existing = await db
    .selectFrom("passkeys")
    .select(["id", "transports"])
    .where("user_id", "=", user.id)
    .execute();
  if (existing.length >= PASSKEYS_MAX) throw new AppError(409, "passkey_limit", undefined, { max: PASSKEYS_MAX });
  await assertFreshProof(user, proof, "passkey_failed");
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: relyingParty().rpID,
    userName: user.email,
    userDisplayName: user.display_name || user.full_name,
    userID: userHandleOf(user.id),
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  await storeChallenge(options.challenge, "register", user.id);
  return options;
}

const transportsOf = (json: string): string[] => {
  try {
    const list: unknown = JSON.parse(json);
    return Array.isArray(list) ? list.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
};

/**
 * Adds the passkey the browser created with the options above: `{ response, name? }` (the name
 * defaults to the browser and system it was made on). 422 for a response that does not verify
 * or a challenge that is not this account's, live and unused; 409 for a passkey already there.
 * The account's address is told (a passkey signs in alone), with the link to remove it.
 */
export async function addPasskey(user: UserRow, input: unknown, origin: Origin = {}): Promise<PasskeyView> {
  const { response, name } = parseInput(
    z.object({ response: responseField(registrationSchema), name: optionalName }),
    input,
    "passkey_failed",
  );
  let challengeOk = false;
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: async (challenge) => (challengeOk = await spendChallenge(challenge, "register", user.id)),
      expectedOrigin: relyingParty().origin,
      expectedRPID: relyingParty().rpID,
      requireUserVerification: false,
    });
  } catch {
    throw new AppError(422, challengeOk ? "passkey_failed" : "passkey_challenge_invalid");
  }
  if (!verification.verified) throw new AppError(422, "passkey_failed");
  const { credential } = verification.registrationInfo;
  const device = deviceOf(origin.userAgent);
  const row = {
    id: credential.id,
    user_id: user.id,
    public_key: Buffer.from(credential.publicKey).toString("base64url"),
    counter: credential.counter,
    transports: JSON.stringify(credential.transports ?? response.response.transports ?? []),
    name: name || [device.browser, device.os].filter(Boolean).join(" · ") || "Passkey",
    created_at: now(),
    last_used_at: null,
  };
  await oneOnly("passkeys", new AppError(409, "passkey_exists"), () =>
    transaction(async (trx) => {
      await trx.insertInto("passkeys").values(row).execute();
      await queueAccountEmail(
        trx,
        user.id,
        "passkey_added",
        { params: { name: row.name, at: emailTime(row.created_at), link: `${config.APP_URL}/account/security` } },
        row.created_at,
      );
    }),
  );
  return { id: row.id, name: row.name, created_at: row.created_at, last_used_at: null };
}

/** A credential id as it travels in a path: base64url; anything else names no passkey. */
const passkeyId = z.string().regex(/^[A-Za-z0-9_-]{1,1000}$/);

/** Renames one of the account's passkeys; 404 when it is not theirs. */
export async function renamePasskey(user: Pick<UserRow, "id">, id: string, input: unknown) {
  const { name } = parseInput(z.object({ name: nameField }), input, "passkey_rename_failed");
  const updated = await db
    .updateTable("passkeys")
    .set({ name })
    .where("id", "=", passkeyId.catch("").parse(id))
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new AppError(404, "passkey_not_found");
}

/**
 * Removes one of the account's passkeys: being signed in is enough (like ending a session). The
 * other sessions opened with it end too; the current one stays. 404 when it is not theirs (or
 * was removed already).
 */
export async function removePasskey(user: Pick<UserRow, "id">, id: string, currentToken: string | null = null) {
  const key = passkeyId.catch("").parse(id);
  const removed = await db
    .deleteFrom("passkeys")
    .where("id", "=", key)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) throw new AppError(404, "passkey_not_found");
  let ended = db.deleteFrom("sessions").where("user_id", "=", user.id).where("passkey_id", "=", key);
  if (currentToken) ended = ended.where("id", "!=", hashToken(currentToken));
  await ended.execute();
}

/**
 * What the browser needs to sign in with a passkey (navigator.credentials.get): no account named,
 * the browser offers the passkeys it holds for this site. Counted per address.
 */
export async function passkeySignInOptions(origin: Origin = {}) {
  await consume(limiters.passkeyByIp, origin.ip ?? null);
  const options = await generateAuthenticationOptions({
    rpID: relyingParty().rpID,
    userVerification: "preferred",
  });
  await storeChallenge(options.challenge, "sign_in", null);
  return options;
}

/**
 * Signs in with the passkey's answer to a sign-in challenge: `{ response }`. The passkey names the
 * account; the challenge must be live and unused; the signature must verify with the stored key;
 * the signature counter must grow when the stored one is not zero (otherwise 401: a copy of the
 * authenticator is in use). Suspended and banned accounts are refused as at the password. The
 * session is opened as after a password (sign-in notice for a new device), marked with the passkey.
 */
export async function signInWithPasskey(input: unknown, origin: Origin = {}) {
  const { response } = parseInput(
    z.object({ response: responseField(authenticationSchema) }),
    input,
    "passkey_sign_in_failed",
  );
  const fail = async (status: number, key: string): Promise<never> => {
    if (origin.ip) await limiters.loginByIp.penalty(origin.ip);
    throw new AppError(status, key);
  };
  const found = await db
    .selectFrom("passkeys")
    .innerJoin("users", "users.id", "passkeys.user_id")
    .selectAll("users")
    .select([
      "passkeys.id as passkey_id",
      "passkeys.public_key as passkey_public_key",
      "passkeys.counter as passkey_counter",
    ])
    .where("passkeys.id", "=", response.id)
    .executeTakeFirst();
  if (!found) return fail(401, "passkey_unknown");
  const { passkey_id: id, passkey_public_key: publicKey, passkey_counter, ...user } = found;
  if (response.response.userHandle && response.response.userHandle !== userHandleOf(user.id).toString("base64url")) {
    return fail(401, "passkey_unknown");
  }
  const stored = Number(passkey_counter);
  let challengeOk = false;
  let newCounter: number;
  try {
    const verification = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: async (challenge) => (challengeOk = await spendChallenge(challenge, "sign_in", null)),
      expectedOrigin: relyingParty().origin,
      expectedRPID: relyingParty().rpID,
      // The counter is judged below, with a message of its own.
      credential: { id, publicKey: Buffer.from(publicKey, "base64url"), counter: 0, transports: [] },
      requireUserVerification: false,
    });
    if (!verification.verified) return await fail(401, "passkey_sign_in_failed");
    newCounter = verification.authenticationInfo.newCounter;
  } catch (error) {
    if (error instanceof AppError) throw error;
    return fail(401, challengeOk ? "passkey_sign_in_failed" : "passkey_challenge_invalid");
  }
  if (stored > 0 && newCounter <= stored) return fail(401, "passkey_cloned");
  // One winner per counter value: the update carries the precondition.
  const moved = await db
    .updateTable("passkeys")
    .set({ counter: newCounter, last_used_at: now() })
    .where("id", "=", id)
    .where((eb) => (newCounter === 0 ? eb("counter", "=", 0) : eb("counter", "<", newCounter)))
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 0) return fail(401, "passkey_cloned");
  if (user.banned_at) throw new AppError(403, "account_banned");
  if (user.suspended_until && user.suspended_until > now()) {
    throw new AppError(403, "account_suspended", undefined, { until: new Date(user.suspended_until) });
  }
  const session = await createSession(user.id, origin, { signIn: true, passkeyId: id });
  return { user: user as UserRow, ...session, twoFactor: null };
}
