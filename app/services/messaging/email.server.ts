import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { z } from "zod";
import { config } from "~/config.server";
import { EMAIL_KINDS, MESSAGE_EMAIL_MINUTES, isEmailKind, isWhatsappKind, type EmailKindName } from "~/lib/email-kinds";
import { supportedLngs, type Lng } from "~/lib/i18n";
import type { ModerationDetail } from "~/lib/moderation";
import { db, transaction } from "../../../db";
import type { Database, EmailKind, UserRow } from "../../../db/schema";
import { AppError, parseInput } from "../platform/errors.server";
import { now } from "../platform/records.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { pushKindsSchema, setPushKinds } from "./push.server";
import { setWhatsappKinds, whatsappKindsSchema, whatsappOn } from "./whatsapp.server";

// E-mail notifications (README, "E-mail"). Every event that notifies in the app (notify() in
// notifications.server.ts) and every new message also writes a row of the outbox, in the same
// transaction, for each recipient who has not turned that kind off; the server processes drain
// the outbox through SMTP (outbox.server.ts), so sending never slows or fails the request.
// Each user's kinds are on by default: email_opt_outs keeps those turned off.

// db/schema's EmailKind and the settings' list must name the same kinds.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const kindsAgree: Same<EmailKind, EmailKindName> = true;
void kindsAgree;

export type EmailInput = {
  user_id: string;
  kind: EmailKind;
  application_id: string | null;
  opportunity_id: number | null;
  detail?: ModerationDetail | null;
};

/** The opt-outs of the recipients and kinds of `list` (not empty), as a query. */
const optOuts = (trx: Kysely<Database>, list: Pick<EmailInput, "user_id" | "kind">[]) =>
  trx
    .selectFrom("email_opt_outs")
    .select(["user_id", "kind"])
    // Qualified: it is also a subquery of statements on tables with these columns (the outbox).
    .where("email_opt_outs.user_id", "in", [...new Set(list.map((e) => e.user_id))])
    .where("email_opt_outs.kind", "in", [...new Set(list.map((e) => e.kind))]);

/** The recipients (user:kind) among `list` who turned their kind off. */
async function optedOut(trx: Kysely<Database>, list: EmailInput[]): Promise<Set<string>> {
  if (!list.length) return new Set();
  const rows = await optOuts(trx, list).execute();
  return new Set(rows.map((r) => `${r.user_id}:${r.kind}`));
}

/**
 * What queueEmails needs to know of the recipients of `list` (not empty), in one statement: the
 * kinds they turned off for e-mail and for push, who has at least one device for push, and (while
 * WhatsApp is on) the kinds they turned ON for WhatsApp with a number that may get them.
 */
async function channelsOf(trx: Kysely<Database>, list: EmailInput[]) {
  const users = [...new Set(list.map((e) => e.user_id))];
  const kinds = [...new Set(list.map((e) => e.kind))];
  const rows = await trx
    .selectFrom("email_opt_outs")
    .select([sql<string>`'email'`.as("channel"), "user_id", sql<string>`kind`.as("kind")])
    .where("user_id", "in", users)
    .where("kind", "in", kinds)
    .unionAll(
      trx
        .selectFrom("push_opt_outs")
        .select([sql<string>`'push'`.as("channel"), "user_id", sql<string>`kind`.as("kind")])
        .where("user_id", "in", users)
        .where("kind", "in", kinds),
    )
    .unionAll(
      trx
        .selectFrom("push_subscriptions")
        .select([sql<string>`'device'`.as("channel"), "user_id", sql<string>`''`.as("kind")])
        .where("user_id", "in", users)
        .groupBy("user_id"),
    )
    .$if(whatsappOn(), (qb) =>
      qb.unionAll(
        trx
          .selectFrom("whatsapp_opt_ins as w")
          .innerJoin("whatsapp_numbers as n", "n.user_id", "w.user_id")
          .select([sql<string>`'whatsapp'`.as("channel"), "w.user_id", sql<string>`w.kind`.as("kind")])
          .where("w.user_id", "in", users)
          .where("w.kind", "in", kinds)
          .where("n.confirmed_at", "is not", null)
          .where("n.opted_out_at", "is", null)
          .where("n.unusable_at", "is", null),
      ),
    )
    .execute();
  const emailOff = new Set<string>();
  const pushOff = new Set<string>();
  const whatsappOnFor = new Set<string>();
  const devices = new Set<string>();
  for (const r of rows) {
    if (r.channel === "device") devices.add(r.user_id);
    else if (r.channel === "whatsapp") whatsappOnFor.add(`${r.user_id}:${r.kind}`);
    else (r.channel === "email" ? emailOff : pushOff).add(`${r.user_id}:${r.kind}`);
  }
  return {
    email: (e: EmailInput) => !emailOff.has(`${e.user_id}:${e.kind}`),
    push: (e: EmailInput) => devices.has(e.user_id) && !pushOff.has(`${e.user_id}:${e.kind}`),
    whatsapp: (e: EmailInput) => isWhatsappKind(e.kind) && whatsappOnFor.has(`${e.user_id}:${e.kind}`),
  };
}

/**
 * Queues one e-mail per item whose recipient has its kind on, one push (channel 'push', a row
 * of its own: each channel is sent and retried apart) per item whose recipient has a device and the
 * kind on for push, and one WhatsApp alert (channel 'whatsapp') per item whose recipient turned
 * the kind on for WhatsApp and has a confirmed number, inside the caller's transaction (called by
 * notify() for every notification). Two statements, whatever the number of items.
 */
export async function queueEmails(trx: Kysely<Database>, list: EmailInput[], at = now()) {
  if (!list.length) return;
  const wants = await channelsOf(trx, list);
  const row = (e: EmailInput, channel: "email" | "push" | "whatsapp") => ({
    id: randomUUID(),
    user_id: e.user_id,
    kind: e.kind,
    application_id: e.application_id,
    opportunity_id: e.opportunity_id,
    detail: e.detail ? JSON.stringify(e.detail) : null,
    items: 1,
    status: "pending" as const,
    attempts: 0,
    next_attempt_at: at,
    created_at: at,
    channel,
  });
  const rows = list.flatMap((e) => [
    ...(wants.email(e) ? [row(e, "email")] : []),
    ...(wants.push(e) ? [row(e, "push")] : []),
    ...(wants.whatsapp(e) ? [row(e, "whatsapp")] : []),
  ]);
  if (rows.length) await trx.insertInto("outbox").values(rows).execute();
}

const MESSAGE_GAP_MS = MESSAGE_EMAIL_MINUTES * 60_000;

/**
 * A new message for `user_id` in a conversation, inside the message's transaction: at most one
 * e-mail per conversation (and recipient) every MESSAGE_EMAIL_MINUTES. While an e-mail of the
 * conversation waits to be sent the message joins it; once one went out, the next waits until
 * MESSAGE_EMAIL_MINUTES after it. Messages of one conversation are written one at a time (the
 * conversation's row is locked by the numbering), so two never race here.
 */
export async function queueMessageEmail(
  trx: Kysely<Database>,
  input: { user_id: string; application_id: string; opportunity_id: number },
  at = now(),
) {
  const email = { ...input, kind: "message_received" as const };
  await queueMessagePush(trx, input, at);
  const same = trx
    .selectFrom("outbox")
    .where("user_id", "=", input.user_id)
    .where("kind", "=", "message_received")
    .where("application_id", "=", input.application_id)
    .where("channel", "=", "email");
  // The usual case, in one statement: an e-mail of the conversation still waits (a drain that
  // claimed it meanwhile has moved it to 'sending'), and its recipient still wants them.
  const joined = await trx
    .updateTable("outbox")
    .set({ items: sql<number>`items + 1` })
    .where("user_id", "=", input.user_id)
    .where("kind", "=", "message_received")
    .where("application_id", "=", input.application_id)
    .where("channel", "=", "email")
    .where("status", "=", "pending")
    .where(({ not, exists }) => not(exists(optOuts(trx, [email]))))
    .executeTakeFirst();
  if (Number(joined.numUpdatedRows) > 0) return;
  if ((await optedOut(trx, [email])).size) return;
  const last = await same
    .select(["sent_at"])
    .where("status", "in", ["sending", "sent"])
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  // One being sent right now counts as sent now.
  const previous = last ? (last.sent_at ?? at) : null;
  const due = previous ? new Date(Math.max(Date.parse(at), Date.parse(previous) + MESSAGE_GAP_MS)).toISOString() : at;
  await trx
    .insertInto("outbox")
    .values({
      id: randomUUID(),
      ...email,
      items: 1,
      status: "pending",
      attempts: 0,
      next_attempt_at: due,
      created_at: at,
    })
    .execute();
}

/**
 * The push of a new message, in one statement: a row of channel 'push' when the recipient has a
 * device, has not turned new messages off for push, and no push of the conversation waits yet
 * (the messages that come meanwhile join it: the drain tells how many are unread when it goes, and
 * sends nothing once they were read). Nothing of the message's text goes (docs/product.md, section 6).
 */
async function queueMessagePush(
  trx: Kysely<Database>,
  input: { user_id: string; application_id: string; opportunity_id: number },
  at: string,
) {
  const text = (value: string) => sql<string>`CAST(${value} AS text)`;
  await trx
    .insertInto("outbox")
    .columns([
      "id",
      "user_id",
      "kind",
      "application_id",
      "opportunity_id",
      "items",
      "status",
      "attempts",
      "next_attempt_at",
      "created_at",
      "channel",
    ])
    .expression(
      trx
        .selectFrom("push_subscriptions as d")
        .select([
          text(randomUUID()).as("id"),
          "d.user_id",
          sql.lit("message_received").as("kind"),
          text(input.application_id).as("application_id"),
          sql<number>`CAST(${input.opportunity_id} AS integer)`.as("opportunity_id"),
          sql.lit(1).as("items"),
          sql.lit("pending").as("status"),
          sql.lit(0).as("attempts"),
          text(at).as("next_attempt_at"),
          text(at).as("created_at"),
          sql.lit("push").as("channel"),
        ])
        .where("d.user_id", "=", input.user_id)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("push_opt_outs as p")
                .select("p.kind")
                .where("p.user_id", "=", input.user_id)
                .where("p.kind", "=", "message_received"),
            ),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("outbox as w")
                .select("w.id")
                .where("w.user_id", "=", input.user_id)
                .where("w.kind", "=", "message_received")
                .where("w.application_id", "=", input.application_id)
                .where("w.channel", "=", "push")
                .where("w.status", "=", "pending"),
            ),
          ),
        )
        .limit(1),
    )
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Settings

export type EmailSettingsJson = {
  locale: Lng | null;
  kinds: Record<EmailKindName, boolean>;
  /** The same kinds for push notifications to the user's devices (push.server.ts). */
  push: Record<EmailKindName, boolean>;
  /** The kinds turned on for WhatsApp (whatsapp.server.ts; all off by default); only while WhatsApp is on. */
  whatsapp?: Partial<Record<EmailKindName, boolean>>;
};

const asLocale = (value: string | null): Lng | null =>
  (supportedLngs as readonly string[]).includes(value ?? "") ? (value as Lng) : null;

export async function getEmailSettings(user: Pick<UserRow, "id">): Promise<EmailSettingsJson> {
  const [row, off] = await Promise.all([
    db.selectFrom("users").select("locale").where("id", "=", user.id).executeTakeFirst(),
    // Both channels' opt-outs in one statement.
    db
      .selectFrom("email_opt_outs")
      .select([sql<string>`'email'`.as("channel"), sql<string>`kind`.as("kind")])
      .where("user_id", "=", user.id)
      .unionAll(
        db
          .selectFrom("push_opt_outs")
          .select([sql<string>`'push'`.as("channel"), sql<string>`kind`.as("kind")])
          .where("user_id", "=", user.id),
      )
      .$if(whatsappOn(), (qb) =>
        qb.unionAll(
          db
            .selectFrom("whatsapp_opt_ins")
            .select([sql<string>`'whatsapp'`.as("channel"), sql<string>`kind`.as("kind")])
            .where("user_id", "=", user.id),
        ),
      )
      .execute(),
  ]);
  const on = (channel: string) => {
    const disabled = new Set(off.filter((o) => o.channel === channel).map((o) => o.kind));
    return Object.fromEntries(EMAIL_KINDS.map((k) => [k, !disabled.has(k)])) as Record<EmailKindName, boolean>;
  };
  const settings: EmailSettingsJson = { locale: asLocale(row?.locale ?? null), kinds: on("email"), push: on("push") };
  if (whatsappOn()) {
    const chosen = new Set(off.filter((o) => o.channel === "whatsapp").map((o) => o.kind));
    settings.whatsapp = Object.fromEntries(EMAIL_KINDS.filter(isWhatsappKind).map((k) => [k, chosen.has(k)]));
  }
  return settings;
}

export const emailSettingsInputSchema = z
  .object(
    {
      kinds: z
        .record(z.string(), z.boolean({ invalid_type_error: "email_kinds_invalid" }), {
          invalid_type_error: "email_kinds_invalid",
        })
        .refine((kinds) => Object.keys(kinds).every(isEmailKind), "email_kinds_invalid")
        .optional(),
      push: pushKindsSchema.optional(),
      whatsapp: whatsappKindsSchema.optional(),
      locale: z
        .enum(supportedLngs, { errorMap: () => ({ message: "email_locale_invalid" }) })
        .nullable()
        .optional(),
    },
    { invalid_type_error: "email_settings_invalid" },
  )
  .strict("email_settings_unknown_field");

/**
 * Turns kinds on or off, for e-mail (`kinds`), push (`push`) and WhatsApp (`whatsapp`); those left out stay as they are. Sets the e-mails' language (null:
 * Portuguese, left out: unchanged). 422 with a message per field for anything else.
 */
export async function updateEmailSettings(user: Pick<UserRow, "id">, input: unknown): Promise<EmailSettingsJson> {
  await consumeWrite(user.id);
  const { kinds = {}, push, whatsapp, locale } = parseInput(emailSettingsInputSchema, input, "email_settings_invalid");
  // While WhatsApp is off its kinds are no field of the settings.
  if (whatsapp && !whatsappOn()) {
    throw new AppError(422, "email_settings_invalid", { whatsapp: "email_settings_unknown_field" });
  }
  const off = Object.keys(kinds).filter((k) => kinds[k] === false) as EmailKindName[];
  const on = Object.keys(kinds).filter((k) => kinds[k] === true) as EmailKindName[];
  const at = now();
  await transaction(async (trx) => {
    if (on.length)
      await trx.deleteFrom("email_opt_outs").where("user_id", "=", user.id).where("kind", "in", on).execute();
    if (off.length) {
      await trx
        .insertInto("email_opt_outs")
        .values(off.map((kind) => ({ user_id: user.id, kind, created_at: at })))
        .onConflict((oc) => oc.columns(["user_id", "kind"]).doNothing())
        .execute();
    }
    if (push) await setPushKinds(trx, user.id, push, at);
    if (whatsapp) await setWhatsappKinds(trx, user.id, whatsapp, at);
    if (locale !== undefined) await trx.updateTable("users").set({ locale }).where("id", "=", user.id).execute();
  });
  return getEmailSettings(user);
}

/** The user picked a language in the app: their e-mails follow it. */
export async function rememberLocale(user: Pick<UserRow, "id">, locale: Lng) {
  await db
    .updateTable("users")
    .set({ locale })
    .where("id", "=", user.id)
    .where((eb) => eb.or([eb("locale", "is", null), eb("locale", "!=", locale)]))
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Unsubscribing without signing in: a token in every e-mail names the user and the kind, signed
// with SESSION_SECRET (HMAC-SHA256), so nobody can make one for another user or another kind.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function signature(userId: string, kind: string) {
  return createHmac("sha256", config.SESSION_SECRET).update(`unsubscribe\n${userId}\n${kind}`).digest("base64url");
}

export function unsubscribeToken(userId: string, kind: EmailKind) {
  return `${userId}.${kind}.${signature(userId, kind)}`;
}

export function unsubscribeUrl(userId: string, kind: EmailKind) {
  return `${config.APP_URL}/unsubscribe/${unsubscribeToken(userId, kind)}`;
}

/** The user and kind a token names, or null when it is malformed or its signature does not match. */
export function readUnsubscribeToken(token: unknown): { userId: string; kind: EmailKindName } | null {
  if (typeof token !== "string" || token.length > 200) return null;
  const [userId, kind, sig, ...rest] = token.split(".");
  if (rest.length || !userId || !sig || !UUID.test(userId) || !isEmailKind(kind)) return null;
  const expected = Buffer.from(signature(userId, kind));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { userId, kind };
}

/** What an unsubscribe link would turn off, and whether it already is; 400 for a bad token. */
export async function describeUnsubscribe(token: unknown): Promise<{ kind: EmailKindName; unsubscribed: boolean }> {
  const read = readUnsubscribeToken(token);
  if (!read) throw new AppError(400, "unsubscribe_invalid");
  const [user, off] = await Promise.all([
    db.selectFrom("users").select("id").where("id", "=", read.userId).executeTakeFirst(),
    db
      .selectFrom("email_opt_outs")
      .select("kind")
      .where("user_id", "=", read.userId)
      .where("kind", "=", read.kind)
      .executeTakeFirst(),
  ]);
  if (!user) throw new AppError(400, "unsubscribe_invalid");
  return { kind: read.kind, unsubscribed: Boolean(off) };
}

/** Turns off the kind the token names, for the user it names (again: nothing changes). */
export async function unsubscribe(token: unknown): Promise<{ kind: EmailKindName }> {
  const read = readUnsubscribeToken(token);
  if (!read) throw new AppError(400, "unsubscribe_invalid");
  const user = await db.selectFrom("users").select("id").where("id", "=", read.userId).executeTakeFirst();
  if (!user) throw new AppError(400, "unsubscribe_invalid");
  await db
    .insertInto("email_opt_outs")
    .values({ user_id: read.userId, kind: read.kind, created_at: now() })
    .onConflict((oc) => oc.columns(["user_id", "kind"]).doNothing())
    .execute();
  return { kind: read.kind };
}
