import { ECDH, randomUUID } from "node:crypto";
import { isIP } from "node:net";
import webpush from "web-push";
import { z } from "zod";
import { config } from "~/config.server";
import { isEmailKind, type EmailKindName } from "~/lib/email-kinds";
import { db, transaction } from "../../../db";
import { lockUser } from "../../../db/dialect";
import type { Database, UserRow } from "../../../db/schema";
import type { Kysely } from "kysely";
import { AppError, oneOnly, parseInput } from "../platform/errors.server";
import { now } from "../platform/records.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { deviceOf, type Device } from "../accounts/devices";

// Web Push (docs/product.md, section 6, "Notificações no aparelho"). A user subscribes each device
// (a browser's PushManager subscription: the push service's endpoint and the keys to encrypt
// for it); every notification that would e-mail them also writes an outbox row of channel 'push'
// for users with a device and that kind on (queueEmails, email.server.ts), and the drain
// (outbox.server.ts) sends it, encrypted (RFC 8291) and signed (VAPID, RFC 8292), to each device.
// The server only ever sends to the push services named in PUSH_SERVICE_HOSTS, over https on 443:
// an endpoint is an address the browser gives us, so nothing else is accepted.

/** Devices one account may subscribe. */
export const MAX_SUBSCRIPTIONS = 10;
/** A push not delivered within a day is dropped by the push service: old news. */
export const PUSH_TTL_SECONDS = 86_400;
/** The longest text a push carries (the notification's line). */
export const PUSH_BODY_MAX = 120;

// ---------------------------------------------------------------------------------------------
// Endpoints

/** Names that only ever mean a machine of a private network (or this one). */
const PRIVATE_NAME = /(^|\.)(localhost|local|localdomain|internal|intranet|lan|home|corp|home\.arpa)$/i;

function allowedHost(host: string): boolean {
  return config.PUSH_SERVICE_HOSTS.split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean)
    .some((pattern) => (pattern.startsWith("*.") ? host.endsWith(pattern.slice(1)) : host === pattern));
}

/** The stand-in push service's origin, in tests alone. */
const testOrigin = () => (config.NODE_ENV === "test" ? config.PUSH_TEST_ENDPOINT_ORIGIN : undefined);

/** Whether the server may send to `endpoint`: https on 443 of a known push service, nothing else. */
export function isPushEndpoint(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const origin = testOrigin();
  if (origin && url.origin === new URL(origin).origin) return true;
  if (url.protocol !== "https:" || url.port !== "") return false;
  const host = url.hostname.toLowerCase();
  if (isIP(host) || host.startsWith("[") || !host.includes(".") || PRIVATE_NAME.test(host)) return false;
  return allowedHost(host);
}

/** A base64url key of `length` bytes (and, for p256dh, a point of the P-256 curve). */
function decodesTo(value: string, length: number, point = false) {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return false;
  const bytes = Buffer.from(value, "base64url");
  if (bytes.length !== length) return false;
  if (!point) return true;
  try {
    // Refuses a buffer that is not an uncompressed point of the curve.
    ECDH.convertKey(bytes, "prime256v1", undefined, undefined, "uncompressed");
    return bytes[0] === 4;
  } catch {
    return false;
  }
}

export const pushSubscriptionSchema = z.object({
  endpoint: z
    .string({ required_error: "push_endpoint_invalid", invalid_type_error: "push_endpoint_invalid" })
    .max(2000, "push_endpoint_invalid")
    .refine(isPushEndpoint, "push_endpoint_invalid"),
  p256dh: z
    .string({ required_error: "push_p256dh_invalid", invalid_type_error: "push_p256dh_invalid" })
    .refine((v) => decodesTo(v, 65, true), "push_p256dh_invalid"),
  auth: z
    .string({ required_error: "push_auth_invalid", invalid_type_error: "push_auth_invalid" })
    .refine((v) => decodesTo(v, 16), "push_auth_invalid"),
});

export type PushSubscriptionJson = {
  id: string;
  /** The push service (its host), never the whole endpoint: it is a credential of the device. */
  service: string;
  /** The browser and system that subscribed, as the security settings name sessions. */
  device: Device;
  user_agent: string | null;
  created_at: string;
  last_sent_at: string | null;
};

type SubscriptionRow = {
  id: string;
  endpoint: string;
  user_agent: string | null;
  created_at: string;
  last_sent_at: string | null;
};

const toJson = (r: SubscriptionRow): PushSubscriptionJson => ({
  id: r.id,
  service: new URL(r.endpoint).host,
  device: deviceOf(r.user_agent),
  user_agent: r.user_agent,
  created_at: r.created_at,
  last_sent_at: r.last_sent_at,
});

/**
 * Subscribes a device of `user` (`{ endpoint, keys: { p256dh, auth } }`, as PushSubscription.toJSON()
 * gives it). The same endpoint again updates its keys; one that another account subscribed is
 * refused (409), as is an 11th device. 422 naming each bad field.
 */
export async function subscribe(
  user: Pick<UserRow, "id">,
  input: unknown,
  userAgent: string | null = null,
): Promise<PushSubscriptionJson> {
  await consumeWrite(user.id);
  const raw = (input && typeof input === "object" ? input : {}) as { endpoint?: unknown; keys?: unknown };
  const keys = (raw.keys && typeof raw.keys === "object" ? raw.keys : {}) as { p256dh?: unknown; auth?: unknown };
  const parsed = parseInput(
    pushSubscriptionSchema,
    { endpoint: raw.endpoint, p256dh: keys.p256dh, auth: keys.auth },
    "push_subscription_invalid",
  );
  const agent = userAgent ? userAgent.slice(0, 200) : null;
  const taken = new AppError(409, "push_endpoint_taken");
  return oneOnly("push_subscriptions", taken, () =>
    transaction(async (trx) => {
      // The count of devices below is taken under a lock of the user's row on PostgreSQL (SQLite
      // writes one transaction at a time): two devices subscribing at once never make an 11th.
      await lockUser(trx, user.id);
      const existing = await trx
        .selectFrom("push_subscriptions")
        .select(["id", "user_id"])
        .where("endpoint", "=", parsed.endpoint)
        .executeTakeFirst();
      if (existing && existing.user_id !== user.id) throw taken;
      if (existing) {
        const row = await trx
          .updateTable("push_subscriptions")
          .set({ p256dh: parsed.p256dh, auth: parsed.auth, user_agent: agent })
          .where("id", "=", existing.id)
          .returning(["id", "endpoint", "user_agent", "created_at", "last_sent_at"])
          .executeTakeFirstOrThrow();
        return toJson(row);
      }
      const { n } = await trx
        .selectFrom("push_subscriptions")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", user.id)
        .executeTakeFirstOrThrow();
      if (Number(n) >= MAX_SUBSCRIPTIONS) {
        throw new AppError(409, "push_subscriptions_limit", undefined, { max: MAX_SUBSCRIPTIONS });
      }
      const row = {
        id: randomUUID(),
        user_id: user.id,
        endpoint: parsed.endpoint,
        p256dh: parsed.p256dh,
        auth: parsed.auth,
        user_agent: agent,
        created_at: now(),
        last_sent_at: null,
      };
      await trx.insertInto("push_subscriptions").values(row).execute();
      return toJson(row);
    }),
  );
}

/** The user's devices, newest first. */
export async function listSubscriptions(user: Pick<UserRow, "id">): Promise<PushSubscriptionJson[]> {
  const rows = await db
    .selectFrom("push_subscriptions")
    .select(["id", "endpoint", "user_agent", "created_at", "last_sent_at"])
    .where("user_id", "=", user.id)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map(toJson);
}

/** Removes one of the user's devices; another's, or none, is a 404 alike. */
export async function removeSubscription(user: Pick<UserRow, "id">, id: string): Promise<void> {
  const result = await db
    .deleteFrom("push_subscriptions")
    .where("id", "=", id)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new AppError(404, "push_subscription_not_found");
}

// ---------------------------------------------------------------------------------------------
// Preferences: every kind is on for push until the user turns it off (push_opt_outs); read and
// written with the e-mail settings (email.server.ts: getEmailSettings, updateEmailSettings).

export const pushKindsSchema = z
  .record(z.string(), z.boolean({ invalid_type_error: "push_kinds_invalid" }), {
    invalid_type_error: "push_kinds_invalid",
  })
  .refine((kinds) => Object.keys(kinds).every(isEmailKind), "push_kinds_invalid");

/**
 * Turns push kinds on or off inside the caller's transaction (the e-mail settings', which parsed
 * them with pushKindsSchema); those left out stay as they are.
 */
export async function setPushKinds(trx: Kysely<Database>, userId: string, kinds: Record<string, boolean>, at = now()) {
  const off = Object.keys(kinds).filter((k) => kinds[k] === false) as EmailKindName[];
  const on = Object.keys(kinds).filter((k) => kinds[k] === true) as EmailKindName[];
  if (on.length) await trx.deleteFrom("push_opt_outs").where("user_id", "=", userId).where("kind", "in", on).execute();
  if (off.length) {
    await trx
      .insertInto("push_opt_outs")
      .values(off.map((kind) => ({ user_id: userId, kind, created_at: at })))
      .onConflict((oc) => oc.columns(["user_id", "kind"]).doNothing())
      .execute();
  }
}

// ---------------------------------------------------------------------------------------------
// VAPID keys (RFC 8292): the settings' pair, or one generated on first use and kept in the
// database, so every server process (and every restart) signs with the same one.

export type VapidKeys = { publicKey: string; privateKey: string };
let vapid: Promise<VapidKeys> | null = null;

export function vapidKeys(): Promise<VapidKeys> {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) {
    return Promise.resolve({ publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY });
  }
  vapid ??= storedVapidKeys().catch((error: unknown) => {
    vapid = null;
    throw error;
  });
  return vapid;
}

async function storedVapidKeys(): Promise<VapidKeys> {
  const generated = webpush.generateVAPIDKeys();
  // Two servers starting at once both try; the first insert wins and both read it back.
  await db
    .insertInto("vapid_keys")
    .values({ id: 1, public_key: generated.publicKey, private_key: generated.privateKey, created_at: now() })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  const row = await db
    .selectFrom("vapid_keys")
    .select(["public_key", "private_key"])
    .where("id", "=", 1)
    .executeTakeFirstOrThrow();
  return { publicKey: row.public_key, privateKey: row.private_key };
}

/** Forgets the pair read from the database (tests that empty the table). */
export function forgetVapidKeys() {
  vapid = null;
}

/**
 * Who the push services may write to about our pushes (mailto: or https:, RFC 8292): VAPID_SUBJECT,
 * else the site's address when it is https, else the address our e-mails come from.
 */
export function vapidSubject() {
  if (config.VAPID_SUBJECT) return config.VAPID_SUBJECT;
  if (config.APP_URL.startsWith("https://")) return config.APP_URL;
  const address = config.MAIL_FROM.match(/<([^>]+)>/)?.[1] ?? config.MAIL_FROM.trim();
  return `mailto:${address}`;
}

// ---------------------------------------------------------------------------------------------
// Sending

export type PushPayload = { title: string; body: string; url: string };
export type PushTarget = { endpoint: string; p256dh: string; auth: string };
/** The push service's answer to one push. */
export type PushResponse = { status: number; body: string };
export type SendPush = (target: PushTarget, payload: PushPayload) => Promise<PushResponse>;

/**
 * Sends one push: web-push encrypts the payload (aes128gcm) and signs the request (VAPID); the
 * request itself goes out here, never following a redirect, to an endpoint checked again now
 * (PUSH_SERVICE_HOSTS may have changed since it was subscribed).
 */
export const sendPush: SendPush = async (target, payload) => {
  if (!isPushEndpoint(target.endpoint)) return { status: 410, body: "endpoint no longer allowed" };
  const keys = await vapidKeys();
  const details = webpush.generateRequestDetails(
    { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
    JSON.stringify(payload),
    {
      TTL: PUSH_TTL_SECONDS,
      urgency: "normal",
      contentEncoding: "aes128gcm",
      vapidDetails: { subject: vapidSubject(), publicKey: keys.publicKey, privateKey: keys.privateKey },
    },
  );
  const response = await fetch(details.endpoint, {
    method: details.method,
    headers: details.headers as Record<string, string>,
    body: new Uint8Array(details.body),
    redirect: "manual",
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: (await response.text()).slice(0, 300) };
};
