import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { z } from "zod";
import { config } from "~/config.server";
import { isEmailKind, isWhatsappKind, type EmailKindName } from "~/lib/email-kinds";
import type { Lng } from "~/lib/i18n";
import { todayInSaoPaulo } from "~/lib/market-schemas";
import { db, transaction } from "../../../db";
import { isUniqueViolation } from "../../../db/dialect";
import type { Database, UserRow } from "../../../db/schema";
import { AppError, parseInput } from "../platform/errors.server";
import { now } from "../platform/records.server";
import { emailLocale } from "../platform/i18n.server";
import { logger } from "../platform/log.server";

// WhatsApp alerts (docs/product.md, section 6, "WhatsApp"), through Meta's Cloud API. A user adds
// one number, confirmed by a 6-digit code sent to it as the `freela_codigo` template; then each kind
// they turn ON (off by default, the opposite of e-mail and push) writes, with the event's e-mail,
// an outbox row of channel 'whatsapp' (queueEmails, email.server.ts), which the drain
// (outbox.server.ts) sends as the `freela_alerta` template: the push's short line and the link.
// The day's caps (per user and for the platform, per São Paulo day) are taken with the send, one
// counter row each, under the rows' locks: two servers never pass a cap. The webhook
// (/api/whatsapp/webhook) records the statuses of what was sent and the STOPs of the people.

/** A code is good for 10 minutes and 5 tries; at most 3 codes an hour go to a user. */
export const CODE_MINUTES = 10;
export const CODE_ATTEMPTS = 5;
export const CODES_PER_HOUR = 3;
/** The Cloud API's error code for a number that cannot get WhatsApp messages. */
export const NOT_ON_WHATSAPP = 131026;
/** What a person writes to stop the messages (any case, trimmed). */
const STOP_WORDS = new Set(["STOP", "PARAR", "SAIR", "CANCELAR"]);

/** WhatsApp is on only when the phone number id and the token are set. */
export const whatsappOn = () => Boolean(config.WHATSAPP_PHONE_NUMBER_ID && config.WHATSAPP_TOKEN);

/** 404 while WhatsApp is off: its endpoints do not exist then. */
export function requireWhatsapp() {
  if (!whatsappOn()) throw new AppError(404, "not_found");
}

/** WhatsApp's language codes of the templates, by the user's language. */
const TEMPLATE_LANGUAGE: Record<Lng, string> = { "pt-BR": "pt_BR", en: "en_US", es: "es" };
export const templateLanguage = (locale: string | null) => TEMPLATE_LANGUAGE[emailLocale(locale)];

// ---------------------------------------------------------------------------------------------
// Numbers

/**
 * A number as people type it, in E.164 (+ and up to 15 digits), or null. Spaces, dashes, dots and
 * parentheses are dropped; 00 becomes +; 10 or 11 digits without a + are a Brazilian number.
 */
export function normalizePhone(input: string): string | null {
  let digits = input.trim().replace(/[\s().-]/g, "");
  if (digits.startsWith("00")) digits = `+${digits.slice(2)}`;
  if (/^\d{10,11}$/.test(digits)) digits = `+55${digits}`;
  return /^\+[1-9]\d{7,14}$/.test(digits) ? digits : null;
}

/** A Brazilian number (+55): a real area code (DDD 11 to 99, no 0) and 8 digits, or 9 starting with 9. */
export const isBrazilianPhone = (phone: string) => /^\+55[1-9][1-9](9\d{8}|[2-5]\d{7})$/.test(phone);

export const phoneSchema = z.object({
  phone: z
    .string({ required_error: "whatsapp_phone_required", invalid_type_error: "whatsapp_phone_invalid" })
    .trim()
    .min(1, "whatsapp_phone_required")
    .max(30, "whatsapp_phone_invalid")
    .transform((v, ctx) => {
      const phone = normalizePhone(v);
      if (!phone) ctx.addIssue({ code: "custom", message: "whatsapp_phone_invalid" });
      else if (phone.startsWith("+55") && !isBrazilianPhone(phone))
        ctx.addIssue({ code: "custom", message: "whatsapp_phone_br_invalid" });
      return phone ?? "";
    }),
});

export const codeSchema = z.object({
  code: z
    .string({ required_error: "whatsapp_code_required", invalid_type_error: "whatsapp_code_format" })
    .trim()
    .min(1, "whatsapp_code_required")
    .regex(/^\d{6}$/, "whatsapp_code_format"),
});

export type WhatsappNumberJson = {
  phone: string;
  /** pending: waiting for the code; confirmed; opted_out: the person wrote STOP; unusable: not on WhatsApp. */
  status: "pending" | "confirmed" | "opted_out" | "unusable";
  confirmed_at: string | null;
  code_expires_at: string | null;
  created_at: string;
};

type NumberRow = {
  phone: string;
  confirmed_at: string | null;
  opted_out_at: string | null;
  unusable_at: string | null;
  code_expires_at: string | null;
  created_at: string;
};

const toJson = (r: NumberRow): WhatsappNumberJson => ({
  phone: r.phone,
  status: r.unusable_at ? "unusable" : r.opted_out_at ? "opted_out" : r.confirmed_at ? "confirmed" : "pending",
  confirmed_at: r.confirmed_at,
  code_expires_at: r.confirmed_at ? null : r.code_expires_at,
  created_at: r.created_at,
});

const NUMBER_COLUMNS = [
  "phone",
  "confirmed_at",
  "opted_out_at",
  "unusable_at",
  "code_expires_at",
  "created_at",
] as const;

/** The user's number, or null. */
export async function getNumber(user: Pick<UserRow, "id">): Promise<WhatsappNumberJson | null> {
  const row = await db
    .selectFrom("whatsapp_numbers")
    .select(NUMBER_COLUMNS)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  return row ? toJson(row) : null;
}

function codeHash(userId: string, phone: string, code: string) {
  return createHmac("sha256", config.SESSION_SECRET)
    .update(`whatsapp-code\n${userId}\n${phone}\n${code}`)
    .digest("hex");
}

/**
 * Adds (or replaces) the user's number and sends it a code. The code's count of the hour is
 * taken in the same statement as the code is stored (a conditional upsert): a burst of requests
 * never sends a 4th code within the hour (429). 422 naming the phone when it is not a number,
 * or when the Cloud API says it is not on WhatsApp; 502 when the API cannot be reached.
 */
export async function addNumber(user: Pick<UserRow, "id" | "locale">, input: unknown): Promise<WhatsappNumberJson> {
  requireWhatsapp();
  const { phone } = parseInput(phoneSchema, input, "whatsapp_number_invalid");
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const at = now();
  const hourAgo = new Date(Date.parse(at) - 3_600_000).toISOString();
  const expires = new Date(Date.parse(at) + CODE_MINUTES * 60_000).toISOString();
  const fresh = sql<boolean>`whatsapp_numbers.codes_window_at IS NULL OR whatsapp_numbers.codes_window_at <= ${hourAgo}`;
  // A code costs the platform as an alert does: it takes one of the platform's messages of the day
  // (not the person's, whose cap keeps alerts from flooding them; codes have their own limit), given
  // back when it does not go.
  const day = new Date(at);
  if (!(await takeDailySlot(null, day))) throw new AppError(429, "whatsapp_daily_cap");
  const row = await db
    .insertInto("whatsapp_numbers")
    .values({
      user_id: user.id,
      phone,
      code_hash: codeHash(user.id, phone, code),
      code_expires_at: expires,
      attempts: 0,
      codes_sent: 1,
      codes_window_at: at,
      confirmed_at: null,
      opted_out_at: null,
      unusable_at: null,
      created_at: at,
    })
    .onConflict((oc) =>
      oc
        .column("user_id")
        .doUpdateSet({
          phone,
          code_hash: (eb) => eb.ref("excluded.code_hash"),
          code_expires_at: expires,
          attempts: 0,
          confirmed_at: null,
          opted_out_at: null,
          unusable_at: null,
          created_at: at,
          codes_sent: sql<number>`CASE WHEN ${fresh} THEN 1 ELSE whatsapp_numbers.codes_sent + 1 END`,
          codes_window_at: sql<string>`CASE WHEN ${fresh} THEN ${at} ELSE whatsapp_numbers.codes_window_at END`,
        })
        .where(sql<boolean>`(${fresh}) OR whatsapp_numbers.codes_sent < ${CODES_PER_HOUR}`),
    )
    .returning(NUMBER_COLUMNS)
    .executeTakeFirst();
  if (!row) {
    await giveBackDailySlot(null, day);
    throw new AppError(429, "whatsapp_codes_limit", undefined, { max: CODES_PER_HOUR });
  }
  const answer = await sendTemplate(phone, "freela_codigo", templateLanguage(user.locale), [code], code);
  if (!answer.ok) {
    await giveBackDailySlot(null, day);
    if (answer.notOnWhatsapp) {
      await markUnusable(phone);
      throw new AppError(422, "whatsapp_number_invalid", { phone: "whatsapp_phone_not_on_whatsapp" });
    }
    throw new AppError(502, "whatsapp_send_failed");
  }
  return toJson(row);
}

/**
 * Confirms the user's number with the code it got. Each try is counted before the code is
 * compared, in one conditional UPDATE: a burst of guesses gets 5 comparisons, no more. A number
 * is confirmed on one account only: whoever proves it with a code takes it from an account that
 * had it (a unique index on confirmed numbers; two confirming at once: one wins, the other 409).
 */
export async function confirmNumber(user: Pick<UserRow, "id">, input: unknown): Promise<WhatsappNumberJson> {
  requireWhatsapp();
  const { code } = parseInput(codeSchema, input, "whatsapp_code_invalid");
  const at = now();
  const tried = await db
    .updateTable("whatsapp_numbers")
    .set({ attempts: sql<number>`attempts + 1` })
    .where("user_id", "=", user.id)
    .where("confirmed_at", "is", null)
    .where("code_hash", "is not", null)
    .returning(["phone", "code_hash", "code_expires_at", "attempts"])
    .executeTakeFirst();
  if (!tried) {
    const row = await getNumber(user);
    if (!row) throw new AppError(404, "whatsapp_number_not_found");
    throw new AppError(409, "whatsapp_already_confirmed");
  }
  if (!tried.code_expires_at || tried.code_expires_at <= at) {
    throw new AppError(422, "whatsapp_code_invalid", { code: "whatsapp_code_expired" });
  }
  if (tried.attempts > CODE_ATTEMPTS) throw new AppError(429, "whatsapp_code_attempts");
  const expected = Buffer.from(tried.code_hash!);
  const given = Buffer.from(codeHash(user.id, tried.phone, code));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError(422, "whatsapp_code_invalid", { code: "whatsapp_code_wrong" });
  }
  try {
    await transaction(async (trx) => {
      await trx
        .deleteFrom("whatsapp_numbers")
        .where("phone", "=", tried.phone)
        .where("user_id", "!=", user.id)
        .where("confirmed_at", "is not", null)
        .execute();
      await trx
        .updateTable("whatsapp_numbers")
        .set({ confirmed_at: at, code_hash: null, code_expires_at: null, attempts: 0 })
        .where("user_id", "=", user.id)
        .where("code_hash", "=", tried.code_hash)
        .where("confirmed_at", "is", null)
        .execute();
    });
  } catch (error) {
    if (isUniqueViolation(error, "whatsapp_numbers")) throw new AppError(409, "whatsapp_number_taken");
    throw error;
  }
  return (await getNumber(user))!;
}

/** Forgets the user's number (the kinds turned on are kept for the next one); 404 without one. */
export async function removeNumber(user: Pick<UserRow, "id">): Promise<void> {
  requireWhatsapp();
  const result = await db.deleteFrom("whatsapp_numbers").where("user_id", "=", user.id).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new AppError(404, "whatsapp_number_not_found");
}

async function markUnusable(phone: string) {
  await db
    .updateTable("whatsapp_numbers")
    .set({ unusable_at: now() })
    .where("phone", "=", phone)
    .where("unusable_at", "is", null)
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Preferences: every kind is OFF for WhatsApp until the user turns it on (whatsapp_opt_ins); read
// and written with the e-mail settings (email.server.ts).

export const whatsappKindsSchema = z
  .record(z.string(), z.boolean({ invalid_type_error: "whatsapp_kinds_invalid" }), {
    invalid_type_error: "whatsapp_kinds_invalid",
  })
  .refine((kinds) => Object.keys(kinds).every((k) => isEmailKind(k) && isWhatsappKind(k)), "whatsapp_kinds_invalid");

/** Turns WhatsApp kinds on or off inside the caller's transaction; those left out stay as they are. */
export async function setWhatsappKinds(
  trx: Kysely<Database>,
  userId: string,
  kinds: Record<string, boolean>,
  at = now(),
) {
  const on = Object.keys(kinds).filter((k) => kinds[k] === true) as EmailKindName[];
  const off = Object.keys(kinds).filter((k) => kinds[k] === false) as EmailKindName[];
  if (off.length)
    await trx.deleteFrom("whatsapp_opt_ins").where("user_id", "=", userId).where("kind", "in", off).execute();
  if (on.length) {
    await trx
      .insertInto("whatsapp_opt_ins")
      .values(on.map((kind) => ({ user_id: userId, kind, created_at: at })))
      .onConflict((oc) => oc.columns(["user_id", "kind"]).doNothing())
      .execute();
  }
}

// ---------------------------------------------------------------------------------------------
// Daily caps

class CapReached extends Error {}

/**
 * Takes one of the day's messages for `userId`, or false when the user's or the platform's cap
 * is reached (null: the platform's alone, for a code the person asked for). Each counter moves by
 * a conditional UPDATE (count below the cap): on PostgreSQL the row's lock makes a second server
 * wait and see the new count; the platform's row first, always, so two never wait on each other.
 */
export async function takeDailySlot(userId: string | null, at: Date): Promise<boolean> {
  const day = todayInSaoPaulo(at);
  try {
    return await transaction(async (trx) => {
      await trx
        .insertInto("whatsapp_daily")
        .values([{ day, user_id: "", sent: 0 }, ...(userId === null ? [] : [{ day, user_id: userId, sent: 0 }])])
        .onConflict((oc) => oc.columns(["day", "user_id"]).doNothing())
        .execute();
      const take = (who: string, cap: number) =>
        trx
          .updateTable("whatsapp_daily")
          .set({ sent: sql<number>`sent + 1` })
          .where("day", "=", day)
          .where("user_id", "=", who)
          .where("sent", "<", cap)
          .executeTakeFirst();
      if (Number((await take("", config.WHATSAPP_DAILY_TOTAL)).numUpdatedRows) === 0) return false;
      // The platform's count was taken: undone with the transaction.
      if (userId === null) return true;
      if (Number((await take(userId, config.WHATSAPP_DAILY_PER_USER)).numUpdatedRows) === 0) throw new CapReached();
      return true;
    });
  } catch (error) {
    if (error instanceof CapReached) return false;
    throw error;
  }
}

/** Gives back a slot taken for a message that did not go (null: the platform's alone). */
export async function giveBackDailySlot(userId: string | null, at: Date) {
  await db
    .updateTable("whatsapp_daily")
    .set({ sent: sql<number>`sent - 1` })
    .where("day", "=", todayInSaoPaulo(at))
    .where("user_id", "in", userId === null ? [""] : ["", userId])
    .where("sent", ">", 0)
    .execute();
}

/** The platform's WhatsApp messages today (São Paulo), and its cap: the console's overview. */
export async function whatsappToday(at = new Date()): Promise<{ sent: number; cap: number } | null> {
  if (!whatsappOn()) return null;
  const row = await db
    .selectFrom("whatsapp_daily")
    .select("sent")
    .where("day", "=", todayInSaoPaulo(at))
    .where("user_id", "=", "")
    .executeTakeFirst();
  return { sent: Number(row?.sent ?? 0), cap: config.WHATSAPP_DAILY_TOTAL };
}

// ---------------------------------------------------------------------------------------------
// Sending

export type TemplateAnswer =
  { ok: true; id: string } | { ok: false; notOnWhatsapp: boolean; status: number; message: string };

/**
 * Sends one template message to `to` (E.164) with `parameters` as its body's {{1}}, {{2}}…; an
 * authentication template (`button`: the code) also carries its copy-code button. Never throws:
 * a timeout or a refused connection is an answer of status 0.
 */
export async function sendTemplate(
  to: string,
  name: "freela_alerta" | "freela_codigo",
  language: string,
  parameters: string[],
  button?: string,
): Promise<TemplateAnswer> {
  const components: unknown[] = [{ type: "body", parameters: parameters.map((text) => ({ type: "text", text })) }];
  if (button)
    components.push({ type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: button }] });
  const url = `${config.WHATSAPP_API_URL.replace(/\/+$/, "")}/${encodeURIComponent(config.WHATSAPP_PHONE_NUMBER_ID ?? "")}/messages`;
  let status = 0;
  let text = "";
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { Authorization: `Bearer ${config.WHATSAPP_TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to,
        type: "template",
        template: { name, language: { code: language }, components },
      }),
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
    status = response.status;
    text = (await response.text()).slice(0, 2000);
  } catch (error) {
    return {
      ok: false,
      notOnWhatsapp: false,
      status: 0,
      message: error instanceof Error ? error.message : String(error),
    };
  }
  let body: { messages?: { id?: string }[]; error?: { code?: number; message?: string } } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // Not JSON: the status says it all.
  }
  const id = body.messages?.[0]?.id;
  if (status >= 200 && status < 300 && id) return { ok: true, id };
  const message = `WhatsApp answered ${status}: ${body.error?.message ?? text}`.slice(0, 500);
  return {
    ok: false,
    notOnWhatsapp: status >= 400 && status < 500 && body.error?.code === NOT_ON_WHATSAPP,
    status,
    message,
  };
}

/** What the drain sends for an outbox row of channel 'whatsapp'. */
export type WhatsappAlert = { to: string; language: string; line: string; link: string };

/** The number an alert may go to now (confirmed, no STOP, on WhatsApp), or null. */
export async function usableNumber(userId: string): Promise<string | null> {
  const row = await db
    .selectFrom("whatsapp_numbers")
    .select("phone")
    .where("user_id", "=", userId)
    .where("confirmed_at", "is not", null)
    .where("opted_out_at", "is", null)
    .where("unusable_at", "is", null)
    .executeTakeFirst();
  return row?.phone ?? null;
}

/** The user turned `kind` on for WhatsApp. */
export async function wantsKind(userId: string, kind: string): Promise<boolean> {
  const row = await db
    .selectFrom("whatsapp_opt_ins")
    .select("kind")
    .where("user_id", "=", userId)
    .where("kind", "=", kind as EmailKindName)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * Sends an alert under the day's caps; what became of it: sent (its id recorded for the
 * statuses), capped (nothing sent, never retried), not on WhatsApp (the number is marked
 * unusable) or failed (to be retried: the slot is given back).
 */
export async function sendAlert(
  row: { id: string; user_id: string },
  alert: WhatsappAlert,
  at: Date,
): Promise<{ outcome: "sent" | "capped" | "unusable" } | { outcome: "failed"; message: string }> {
  if (!(await takeDailySlot(row.user_id, at))) return { outcome: "capped" };
  const answer = await sendTemplate(alert.to, "freela_alerta", alert.language, [alert.line, alert.link]);
  if (answer.ok) {
    const stamp = at.toISOString();
    await db
      .insertInto("whatsapp_sends")
      .values({
        id: answer.id,
        outbox_id: row.id,
        user_id: row.user_id,
        status: "accepted",
        created_at: stamp,
        updated_at: stamp,
      })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    return { outcome: "sent" };
  }
  await giveBackDailySlot(row.user_id, at);
  if (answer.notOnWhatsapp) {
    await markUnusable(alert.to);
    return { outcome: "unusable" };
  }
  return { outcome: "failed", message: answer.message };
}

// ---------------------------------------------------------------------------------------------
// Webhook

/** The GET handshake Meta makes when the webhook is set up: the challenge, or null (403). */
export function verifyHandshake(query: URLSearchParams): string | null {
  requireWhatsapp();
  const token = query.get("hub.verify_token") ?? "";
  const expected = config.WHATSAPP_VERIFY_TOKEN ?? "";
  if (query.get("hub.mode") !== "subscribe" || !expected) return null;
  const a = createHmac("sha256", "handshake").update(token).digest();
  const b = createHmac("sha256", "handshake").update(expected).digest();
  return timingSafeEqual(a, b) ? (query.get("hub.challenge") ?? "") : null;
}

/** X-Hub-Signature-256: sha256=HMAC-SHA256 of the raw body with the app secret. */
export function validSignature(header: string | null, raw: Buffer): boolean {
  if (!config.WHATSAPP_APP_SECRET || !header?.startsWith("sha256=")) return false;
  const expected = Buffer.from(createHmac("sha256", config.WHATSAPP_APP_SECRET).update(raw).digest("hex"));
  const given = Buffer.from(header.slice("sha256=".length).toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Each status moves a send forward only (a late 'sent' after 'read' changes nothing). */
const EARLIER: Record<string, ("accepted" | "sent" | "delivered" | "read" | "failed")[]> = {
  sent: ["accepted"],
  delivered: ["accepted", "sent"],
  read: ["accepted", "sent", "delivered"],
  failed: ["accepted", "sent"],
};

type WebhookBody = {
  entry?: {
    changes?: {
      value?: {
        statuses?: { id?: unknown; status?: unknown }[];
        messages?: { from?: unknown; type?: unknown; text?: { body?: unknown } }[];
      };
    }[];
  }[];
};

/**
 * A signed notification of the Cloud API (its signature checked by the caller, before this reads
 * anything): the statuses of messages sent, and the STOPs of people, which opt their number out.
 */
export async function receiveWebhook(raw: Buffer): Promise<{ statuses: number; stops: number }> {
  let body: WebhookBody;
  try {
    body = JSON.parse(raw.toString("utf8")) as WebhookBody;
  } catch {
    throw new AppError(400, "webhook_malformed");
  }
  const at = now();
  let statuses = 0;
  let stops = 0;
  for (const entry of Array.isArray(body?.entry) ? body.entry : []) {
    for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
      const value = change?.value;
      for (const s of Array.isArray(value?.statuses) ? value.statuses : []) {
        if (typeof s?.id !== "string" || typeof s.status !== "string" || !EARLIER[s.status]) continue;
        const result = await db
          .updateTable("whatsapp_sends")
          .set({ status: s.status as "sent", updated_at: at })
          .where("id", "=", s.id)
          .where("status", "in", EARLIER[s.status]!)
          .executeTakeFirst();
        statuses += Number(result.numUpdatedRows);
      }
      for (const m of Array.isArray(value?.messages) ? value.messages : []) {
        if (typeof m?.from !== "string" || !/^\d{8,15}$/.test(m.from) || m.type !== "text") continue;
        const text = typeof m.text?.body === "string" ? m.text.body.trim().toUpperCase() : "";
        if (!STOP_WORDS.has(text)) continue;
        const result = await db
          .updateTable("whatsapp_numbers")
          .set({ opted_out_at: at })
          .where("phone", "=", `+${m.from}`)
          .where("opted_out_at", "is", null)
          .executeTakeFirst();
        stops += Number(result.numUpdatedRows);
        logger.info(`[whatsapp] a number wrote ${text}: opted out`);
      }
    }
  }
  return { statuses, stops };
}
