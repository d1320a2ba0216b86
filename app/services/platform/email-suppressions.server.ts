import { z } from "zod";
import { config } from "~/config.server";
import { db, transaction } from "../../../db";
import type { Database } from "../../../db/schema";
import type { Kysely } from "kysely";
import { recordAudit, type Actor } from "../operator/audit.server";
import { hmacProblem } from "../payments/providers.server";
import { AppError } from "./errors.server";
import { logger } from "./log.server";
import { metrics } from "./metrics.server";
import { now } from "./records.server";

// E-mail that stays deliverable (docs/operations.md, "E-mails devolvidos"). An address that
// bounced for good, or whose owner marked one of our e-mails as spam, gets no more e-mail: the
// outbox skips it (counted as suppressed). The e-mail provider says so through a signed webhook
// (Mailgun's format, or a generic one); the account whose address it is sees a notice asking for
// another address (users.email_undeliverable_at), and changing the address ends it. The operator
// sees the list and lifts an address (audited).

export type SuppressionReason = "bounce" | "complaint";
export type EmailProvider = "mailgun" | "generic";

/** How long a notification's id is kept against replays (longer than the signature's 5 minutes). */
const RECEIPT_DAYS = 3;

/** Whether e-mail to `email` is suppressed. */
export async function isSuppressed(email: string): Promise<boolean> {
  const row = await db
    .selectFrom("email_suppressions")
    .select("email")
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** Stops e-mail to `email` (once: a second notice for it changes nothing) and tells its account. */
export async function suppressAddress(
  trx: Kysely<Database>,
  input: { email: string; reason: SuppressionReason; source: string; detail: string | null },
  at = now(),
) {
  const email = input.email.trim().toLowerCase();
  await trx
    .insertInto("email_suppressions")
    .values({
      email,
      reason: input.reason,
      source: input.source,
      detail: input.detail?.slice(0, 300) ?? null,
      created_at: at,
    })
    .onConflict((oc) => oc.column("email").doNothing())
    .execute();
  await trx
    .updateTable("users")
    .set({ email_undeliverable_at: at })
    .where("email", "=", email)
    .where("email_undeliverable_at", "is", null)
    .execute();
}

/** The account's notice after an address change: on only if the new address is suppressed too. */
export const undeliverableSince = (trx: Kysely<Database>, email: string) =>
  trx.selectFrom("email_suppressions").select("created_at").where("email", "=", email.trim().toLowerCase());

// ---------------------------------------------------------------------------------------------
// The provider's webhook

export type EmailWebhookInput = { body: string; headers: Headers };
export type EmailWebhookOutcome = "suppressed" | "ignored" | "duplicate";

/** What one notification says: its id (against replays), and the address to suppress, if any. */
type Notice = { id: string; email: string | null; reason: SuppressionReason; detail: string | null };

const mailgunBody = z.object({
  signature: z.object({
    timestamp: z.string().regex(/^\d{1,13}$/),
    token: z.string().min(10).max(200),
    signature: z.string().regex(/^[0-9a-f]{64}$/i),
  }),
  "event-data": z.object({
    event: z.string(),
    severity: z.string().optional(),
    recipient: z.string().email().max(254),
    "delivery-status": z
      .object({
        code: z.union([z.number(), z.string()]).optional(),
        description: z.string().optional(),
        message: z.string().optional(),
      })
      .partial()
      .optional(),
  }),
});

const genericBody = z.object({
  id: z.string().min(1).max(200),
  type: z.enum(["bounce", "complaint", "soft_bounce", "delivered"]),
  email: z.string().email().max(254),
  detail: z.string().max(1000).optional(),
});

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** Mailgun: the signing key's HMAC of timestamp + token, in the body; `failed` + `permanent` or `complained`. */
function mailgunNotice(body: string): Notice {
  const key = config.MAILGUN_WEBHOOK_SIGNING_KEY;
  if (!key) throw new AppError(404, "not_found");
  const parsed = mailgunBody.safeParse(parseJson(body));
  if (!parsed.success) throw refusal(400, "webhook_malformed", body);
  const { signature, "event-data": event } = parsed.data;
  const problem = hmacProblem(signature.timestamp + signature.token, signature.timestamp, signature.signature, key);
  if (problem) throw refusal(401, problem === "stale" ? "webhook_stale" : "webhook_bad_signature", signature.timestamp);
  const status = event["delivery-status"];
  const detail = [status?.code, status?.description || status?.message].filter(Boolean).join(" ") || null;
  if (event.event === "complained") return { id: signature.token, email: event.recipient, reason: "complaint", detail };
  const hard = event.event === "failed" && event.severity === "permanent";
  return { id: signature.token, email: hard ? event.recipient : null, reason: "bounce", detail };
}

/** Generic: X-Freela-Signature `sha256=<HMAC of "<timestamp>.<body>">`, X-Freela-Timestamp in seconds. */
function genericNotice(body: string, headers: Headers): Notice {
  const secret = config.EMAIL_WEBHOOK_SECRET;
  if (!secret) throw new AppError(404, "not_found");
  const ts = headers.get("x-freela-timestamp") ?? "";
  const hex = /^sha256=([0-9a-f]{64})$/i.exec(headers.get("x-freela-signature") ?? "")?.[1];
  const problem = /^\d{1,13}$/.test(ts) && hex ? hmacProblem(`${ts}.${body}`, ts, hex, secret) : "bad_signature";
  if (problem) throw refusal(401, problem === "stale" ? "webhook_stale" : "webhook_bad_signature", ts);
  const parsed = genericBody.safeParse(parseJson(body));
  if (!parsed.success) throw refusal(400, "webhook_malformed", body);
  const { id, type, email, detail } = parsed.data;
  const suppress = type === "bounce" || type === "complaint";
  return {
    id,
    email: suppress ? email : null,
    reason: type === "complaint" ? "complaint" : "bounce",
    detail: detail ?? null,
  };
}

function refusal(status: number, key: string, detail: string) {
  logger.warn(`[mail] e-mail provider webhook refused (${key}): ${JSON.stringify(detail.slice(0, 200))}`);
  return new AppError(status, key);
}

/**
 * A bounce or complaint from the e-mail provider (POST /api/webhooks/email/:provider): checked
 * (signature, freshness, shape), taken once per notification id, and the address suppressed when
 * it bounced for good or complained. A temporary failure or a delivery is taken and ignored.
 */
export async function receiveEmailWebhook(provider: string, input: EmailWebhookInput): Promise<EmailWebhookOutcome> {
  let notice: Notice;
  if (provider === "mailgun") notice = mailgunNotice(input.body);
  else if (provider === "generic") notice = genericNotice(input.body, input.headers);
  else throw new AppError(404, "not_found");
  const at = now();
  return transaction(async (trx) => {
    const taken = await trx
      .insertInto("email_webhook_receipts")
      .values({ id: `${provider}:${notice.id}`, received_at: at })
      .onConflict((oc) => oc.column("id").doNothing())
      .executeTakeFirst();
    if (Number(taken.numInsertedOrUpdatedRows ?? 0) === 0) return "duplicate";
    if (!notice.email) return "ignored";
    await suppressAddress(
      trx,
      { email: notice.email, reason: notice.reason, source: provider, detail: notice.detail },
      at,
    );
    logger.info(
      `[mail] ${provider}: an address ${notice.reason === "complaint" ? "complained" : "bounced"}; suppressed`,
    );
    return "suppressed";
  });
}

/** Forgets notification ids older than RECEIPT_DAYS (the hourly pruning). */
export async function pruneEmailWebhookReceipts(at = new Date()) {
  const cutoff = new Date(at.getTime() - RECEIPT_DAYS * 86_400_000).toISOString();
  await db.deleteFrom("email_webhook_receipts").where("received_at", "<", cutoff).execute();
}

// ---------------------------------------------------------------------------------------------
// The operator's list

export type SuppressionJson = {
  email: string;
  reason: SuppressionReason;
  source: string;
  detail: string | null;
  created_at: string;
};

const LIST_LIMIT = 200;

/** The suppressed addresses, newest first (at most 200), or the one address `q`. */
export async function listSuppressions(q?: string | null): Promise<SuppressionJson[]> {
  const address = q?.trim().toLowerCase().slice(0, 254);
  return db
    .selectFrom("email_suppressions")
    .select(["email", "reason", "source", "detail", "created_at"])
    .$if(Boolean(address), (qb) => qb.where("email", "=", address!))
    .orderBy("created_at", "desc")
    .orderBy("email")
    .limit(LIST_LIMIT)
    .execute();
}

/** Lifts the suppression of `email` (audited); 404 when it is not suppressed (or was just lifted). */
export async function liftSuppression(actor: Actor, email: unknown) {
  const address = typeof email === "string" ? email.trim().toLowerCase() : "";
  if (!address || address.length > 254) throw new AppError(404, "not_found");
  await transaction(async (trx) => {
    const gone = await trx
      .deleteFrom("email_suppressions")
      .where("email", "=", address)
      .returning(["reason", "source", "created_at"])
      .executeTakeFirst();
    if (!gone) throw new AppError(404, "not_found");
    await trx.updateTable("users").set({ email_undeliverable_at: null }).where("email", "=", address).execute();
    await recordAudit(trx, actor, {
      action: "email.unsuppress",
      target_type: "email",
      target_id: address,
      before: { reason: gone.reason, source: gone.source, since: gone.created_at },
    });
  });
}

/** Counts an e-mail's outcome for /metrics. */
export const countEmail = (outcome: "sent" | "retried" | "failed" | "suppressed") => metrics.emails.inc({ outcome });
