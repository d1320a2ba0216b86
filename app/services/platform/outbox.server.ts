import { randomUUID } from "node:crypto";
import { sql, type ExpressionBuilder, type Kysely, type Selectable } from "kysely";
import { config } from "~/config.server";
import { db, engine } from "../../../db";
import type { ContractParty, Database, EmailKind, OutboxRow } from "../../../db/schema";
import { composeAccountEmail, isAccountEmailKind } from "../messaging/account-email.server";
import { composeDigestEmail } from "../discovery/saved-search-email.server";
import { unsubscribeUrl } from "../messaging/email.server";
import { emailLocale, fixedT } from "./i18n.server";
import { every } from "./jobs.server";
import { otherParty, PEOPLE_COLUMNS, personJson } from "./participants.server";
import { countEmail, isSuppressed } from "./email-suppressions.server";
import { sendMail, type Mail, type SendMail } from "./mail.server";
import { displayNameOf } from "../accounts/users.server";
import { formatDateTime } from "~/lib/format";
import { isModerationKind, moderationPath, noticeMoney, parseDetail } from "~/lib/moderation";
import { formatMoney } from "~/lib/money";
import { logger } from "./log.server";
import { PUSH_BODY_MAX, sendPush, type PushPayload, type PushTarget, type SendPush } from "../messaging/push.server";
import {
  sendAlert,
  templateLanguage,
  usableNumber,
  wantsKind,
  whatsappOn,
  type WhatsappAlert,
} from "../messaging/whatsapp.server";

// The drain of the e-mail outbox (README, "E-mail"). Every server process runs it every
// OUTBOX_SECONDS (startOutbox). A drain first claims a few due rows with one conditional UPDATE
// (status 'pending' and due, or 'sending' whose claim has lapsed), marking them 'sending' under
// its own claim id for LEASE_MS; a row another drain claimed first no longer matches, so two
// drains never send the same row. Then it sends each and records the outcome under its claim:
// 'sent', or back to 'pending' for a later try (exponential backoff), or 'failed' with the error
// after MAX_ATTEMPTS. A process that dies mid-send leaves its rows to be claimed again once the
// lease ends: an e-mail may then go out twice, never zero times.
//
// A push (channel 'push', docs/product.md section 6) is a row of its own beside the event's
// e-mail: it goes to each of the user's devices through their push service (push.server.ts), and
// is retried alone. A device the push service says is gone (404, 410) is forgotten; a device that
// got the push is recorded on the row (its payload), so a retry goes only to the others.
//
// A WhatsApp alert (channel 'whatsapp') is a row of its own too: the `freela_alerta` template to
// the user's confirmed number (whatsapp.server.ts), under the day's caps. Over a cap it is skipped
// ('daily cap'), never retried; a number the Cloud API says is not on WhatsApp is marked unusable
// and the row skipped; a 5xx or a timeout is retried as an e-mail is.

export const MAX_ATTEMPTS = 8;
/** The wait after the first failure; each further failure doubles it, up to BACKOFF_MAX_MS. */
export const BACKOFF_BASE_MS = 60_000;
const BACKOFF_MAX_MS = 6 * 60 * 60_000;
/** How long a claim holds a row: far more than one SMTP exchange takes. */
const LEASE_MS = 5 * 60_000;
const CLAIM_BATCH = 20;
/** Sent and skipped rows are kept this long (the batching of messages reads the latest), then dropped. */
const KEEP_DAYS = 30;
const DAY_MS = 86_400_000;

export type DrainResult = { sent: number; skipped: number; retried: number; failed: number };

export function backoffMs(attempts: number) {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

/** A table drained as the outbox is (status, next_attempt_at, claim, locked_until, attempts), and its claimed status. */
type Queue = { table: "outbox"; busy: "sending" } | { table: "nfse_documents"; busy: "issuing" };

/**
 * Claims up to `limit` rows of the queue due at `stamp` for one drain alone, for `leaseMs`: waiting
 * ('pending') and due, or claimed by a drain whose lease ran out. Shared by the outbox and the notas
 * fiscais (fiscal/notas.server.ts).
 */
export async function claimDue<Q extends Queue>(
  queue: Q,
  stamp: string,
  limit: number,
  leaseMs = LEASE_MS,
): Promise<Selectable<Database[Q["table"]]>[]> {
  // One body for both tables: their columns of the queue are the same.
  const q = db as unknown as Kysely<Pick<Database, "outbox">>;
  const busy = queue.busy as "sending";
  const claimable = (eb: ExpressionBuilder<Pick<Database, "outbox">, "outbox">) =>
    eb.or([
      eb.and([eb("status", "=", "pending"), eb("next_attempt_at", "<=", stamp)]),
      eb.and([eb("status", "=", busy), eb("locked_until", "<=", stamp)]),
    ]);
  const lockedUntil = new Date(Date.parse(stamp) + leaseMs).toISOString();
  const rows = await q
    .updateTable(queue.table as "outbox")
    .set({ status: busy, claim: randomUUID(), locked_until: lockedUntil, attempts: sql<number>`attempts + 1` })
    .where("id", "in", (eb) =>
      eb
        .selectFrom(queue.table as "outbox")
        .select("id")
        .where(claimable)
        .orderBy("next_attempt_at")
        .limit(limit)
        // PostgreSQL: rows another drain is claiming right now are passed over, not waited for.
        // Either way the outer WHERE repeats the condition, which a claimed row no longer meets.
        .$if(engine === "postgres", (qb) => qb.forUpdate().skipLocked()),
    )
    .where(claimable)
    .returningAll()
    .execute();
  return rows as unknown as Selectable<Database[Q["table"]]>[];
}

/**
 * Records a claimed row's outcome, unless its claim lapsed and another drain took it over. An
 * account e-mail's payload (its link) is dropped once the row will not be sent again.
 */
async function settle(
  row: OutboxRow,
  set: Partial<Pick<OutboxRow, "status" | "sent_at" | "last_error" | "next_attempt_at" | "payload">>,
) {
  const done = set.status !== "pending";
  await db
    .updateTable("outbox")
    .set({ ...set, claim: null, locked_until: null, ...(done && row.payload !== null ? { payload: null } : {}) })
    .where("id", "=", row.id)
    .where("claim", "=", row.claim)
    .where("status", "=", "sending")
    .execute();
}

/**
 * Sends what is due at `at` through `send` (SMTP_URL's server, or the log without one). Each row
 * is settled on its own, so one failing address does not hold back the others. Never throws for
 * a failed send: the error is recorded on the row.
 */
export async function drainOutbox(
  options: { at?: Date; send?: SendMail; push?: SendPush; limit?: number } = {},
): Promise<DrainResult> {
  const at = options.at ?? new Date();
  const send = options.send ?? sendMail;
  const stamp = at.toISOString();
  const result: DrainResult = { sent: 0, skipped: 0, retried: 0, failed: 0 };
  const rows = await claimDue({ table: "outbox", busy: "sending" }, stamp, options.limit ?? CLAIM_BATCH);
  for (const row of rows) {
    if (row.channel === "push") {
      result[await drainPush(row, options.push ?? sendPush, at)]++;
      continue;
    }
    if (row.channel === "whatsapp") {
      result[await drainWhatsapp(row, at)]++;
      continue;
    }
    let mail: Mail | null;
    let suppressed = false;
    try {
      mail = await compose(row);
      // An address that bounced for good or complained gets nothing more (email-suppressions.server.ts).
      if (mail && (await isSuppressed(mail.to))) {
        suppressed = true;
        mail = null;
      }
      if (mail) await send(mail);
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      if (row.attempts >= MAX_ATTEMPTS) {
        await settle(row, { status: "failed", last_error: message });
        result.failed++;
        countEmail("failed");
        logger.error(`[mail] gave up on ${row.kind} e-mail ${row.id} after ${row.attempts} attempts: ${message}`);
      } else {
        const next = new Date(at.getTime() + backoffMs(row.attempts)).toISOString();
        await settle(row, { status: "pending", next_attempt_at: next, last_error: message });
        result.retried++;
        countEmail("retried");
        logger.warn(
          `[mail] ${row.kind} e-mail ${row.id} failed (attempt ${row.attempts}), again at ${next}: ${message}`,
        );
      }
      continue;
    }
    await settle(
      row,
      mail
        ? { status: "sent", sent_at: stamp, last_error: null }
        : { status: "skipped", last_error: suppressed ? "suppressed" : null },
    );
    if (mail) result.sent++;
    else result.skipped++;
    if (mail || suppressed) countEmail(mail ? "sent" : "suppressed");
  }
  if (rows.length) {
    const cutoff = new Date(at.getTime() - KEEP_DAYS * DAY_MS).toISOString();
    await db
      .deleteFrom("outbox")
      .where("status", "in", ["sent", "skipped"])
      .where("next_attempt_at", "<", cutoff)
      .execute();
  }
  return result;
}

/** Sends a claimed push row to the user's devices and settles it; what became of it. */
async function drainPush(row: OutboxRow, push: SendPush, at: Date): Promise<keyof DrainResult> {
  const stamp = at.toISOString();
  // The devices that already got this push on an earlier try.
  const delivered = new Set<string>(row.payload ? (JSON.parse(row.payload) as string[]) : []);
  let sent = 0;
  try {
    const composed = await composePush(row);
    const targets = composed?.targets.filter((d) => !delivered.has(d.id)) ?? [];
    const failures: string[] = [];
    for (const target of targets) {
      let answer: { status: number; body: string };
      try {
        answer = await push(target, composed!.payload);
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
        continue;
      }
      if (answer.status === 404 || answer.status === 410) {
        // The device unsubscribed or the browser dropped it: it will never take a push again.
        await db.deleteFrom("push_subscriptions").where("id", "=", target.id).execute();
      } else if (answer.status >= 200 && answer.status < 300) {
        delivered.add(target.id);
        sent++;
        await db.updateTable("push_subscriptions").set({ last_sent_at: stamp }).where("id", "=", target.id).execute();
      } else {
        failures.push(`push service answered ${answer.status}: ${answer.body}`);
      }
    }
    if (failures.length) throw new Error(failures.join("; "));
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    const payload = delivered.size ? JSON.stringify([...delivered]) : null;
    if (row.attempts >= MAX_ATTEMPTS) {
      await settle(row, { status: "failed", last_error: message });
      logger.error(`[push] gave up on ${row.kind} push ${row.id} after ${row.attempts} attempts: ${message}`);
      return "failed";
    }
    const next = new Date(at.getTime() + backoffMs(row.attempts)).toISOString();
    await settle(row, { status: "pending", next_attempt_at: next, last_error: message, payload });
    logger.warn(`[push] ${row.kind} push ${row.id} failed (attempt ${row.attempts}), again at ${next}: ${message}`);
    return "retried";
  }
  const any = sent > 0 || delivered.size > 0;
  await settle(
    row,
    any ? { status: "sent", sent_at: stamp, last_error: null } : { status: "skipped", last_error: null },
  );
  return any ? "sent" : "skipped";
}

/** Sends a claimed WhatsApp row and settles it; what became of it. */
async function drainWhatsapp(row: OutboxRow, at: Date): Promise<keyof DrainResult> {
  const stamp = at.toISOString();
  let message: string;
  try {
    const alert = await composeWhatsapp(row);
    if (!alert) {
      await settle(row, { status: "skipped", last_error: null });
      return "skipped";
    }
    const sent = await sendAlert(row, alert, at);
    if (sent.outcome === "sent") {
      await settle(row, { status: "sent", sent_at: stamp, last_error: null });
      return "sent";
    }
    if (sent.outcome !== "failed") {
      await settle(row, { status: "skipped", last_error: sent.outcome === "capped" ? "daily cap" : "not on WhatsApp" });
      return "skipped";
    }
    message = sent.message;
  } catch (error) {
    message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
  }
  if (row.attempts >= MAX_ATTEMPTS) {
    await settle(row, { status: "failed", last_error: message });
    logger.error(`[whatsapp] gave up on ${row.kind} alert ${row.id} after ${row.attempts} attempts: ${message}`);
    return "failed";
  }
  const next = new Date(at.getTime() + backoffMs(row.attempts)).toISOString();
  await settle(row, { status: "pending", next_attempt_at: next, last_error: message });
  logger.warn(`[whatsapp] ${row.kind} alert ${row.id} failed (attempt ${row.attempts}), again at ${next}: ${message}`);
  return "retried";
}

/** Where an e-mail leads: the invitations, the contract, the conversation or the application. */
function pathOf(row: Pick<OutboxRow, "kind" | "application_id" | "detail">, opportunityUuid: string | null) {
  if (isModerationKind(row.kind)) {
    return moderationPath(row.kind, parseDetail(row.detail), {
      application_id: row.application_id,
      opportunity_uuid: opportunityUuid,
    });
  }
  if (row.kind === "invitation_received") return "/invitations";
  if (row.kind.startsWith("payout_")) return "/financeiro";
  if (row.kind.startsWith("milestone_") && row.application_id) return `/contracts/${row.application_id}`;
  if (!row.application_id) return "/notifications";
  // An order of a ready-made service is a contract (of the same id).
  if (row.kind.startsWith("contract_") || row.kind.startsWith("service_")) return `/contracts/${row.application_id}`;
  if (row.kind === "message_received") return `/applications/${row.application_id}/messages`;
  return `/applications/${row.application_id}`;
}

const recipientOf = (row: OutboxRow) =>
  db.selectFrom("users").select(["id", "email", "locale", "display_name", "full_name"]).where("id", "=", row.user_id);

/**
 * The e-mail of a row, in the recipient's language, or null when there is nothing to send any
 * more: the kind was turned off since, or the new messages have been read already.
 */
async function compose(row: OutboxRow): Promise<Mail | null> {
  const recipient = recipientOf(row);
  if (isAccountEmailKind(row.kind)) {
    const user = await recipient.executeTakeFirst();
    return user ? composeAccountEmail(row, user) : null;
  }
  if (row.kind === "saved_search_digest") {
    const user = await recipient.where("deleted_at", "is", null).executeTakeFirst();
    return user ? composeDigestEmail(row, user) : null;
  }
  const notice = await noticeOf(row, "email_opt_outs");
  if (!notice) return null;
  const { user, t, event } = notice;
  const link = `${config.APP_URL}${notice.path}`;
  const unsubscribe = unsubscribeUrl(user.id, row.kind);
  const text = [
    t("email.greeting", { name: displayNameOf(user) }),
    "",
    // One full stop: an operator's reason usually ends with its own.
    /[.!?…]$/.test(event) ? event : `${event}.`,
    "",
    t("email.open", { link }),
    "",
    "-- ",
    t("email.footer", {
      kind: t(`email_settings.kinds.${row.kind}`),
      unsubscribe,
      settings: `${config.APP_URL}/pages/profile-setting#email`,
    }),
  ].join("\n");
  return {
    to: user.email,
    // An operator's reason is the text's, not the subject's: the subject names the kind.
    subject: t("email.subject", { event: subjectEvent(row, notice) }),
    text,
    // RFC 2369 and RFC 8058: mail programs offer their own unsubscribe button, which POSTs here.
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}

type Notice = NonNullable<Awaited<ReturnType<typeof noticeOf>>>;

/** What the subject of a row's e-mail tells: the event, or the kind when an operator gave a reason. */
const subjectEvent = (row: OutboxRow, notice: Notice) =>
  parseDetail(row.detail)?.reason ? notice.t(`email_settings.kinds.${row.kind}`) : notice.event;

/**
 * The push of a row and the devices to send it to, or null when there is nothing to send: the
 * kind was turned off for push since, no device is left, or what it tells of is hidden by the
 * moderation now (a notice of moderation itself still goes, with its kind's name alone).
 */
async function composePush(
  row: OutboxRow,
): Promise<{ payload: PushPayload; targets: (PushTarget & { id: string })[] } | null> {
  if (isAccountEmailKind(row.kind) || row.kind === "saved_search_digest") return null;
  const [notice, targets] = await Promise.all([
    noticeOf(row, "push_opt_outs"),
    db
      .selectFrom("push_subscriptions")
      .select(["id", "endpoint", "p256dh", "auth"])
      .where("user_id", "=", row.user_id)
      .orderBy("created_at")
      .execute(),
  ]);
  if (!notice || !targets.length) return null;
  if (notice.hidden && !isModerationKind(row.kind)) return null;
  return {
    payload: {
      title: notice.t("push.title"),
      body: shortLine(row, notice),
      url: notice.path,
    },
    targets,
  };
}

/** The short line of a push or a WhatsApp alert: the event, or the kind's name alone for a notice of moderation. */
function shortLine(row: OutboxRow, notice: Notice) {
  const body = isModerationKind(row.kind) ? notice.t(`email_settings.kinds.${row.kind}`) : subjectEvent(row, notice);
  return body.length > PUSH_BODY_MAX ? `${body.slice(0, PUSH_BODY_MAX - 1)}…` : body;
}

/**
 * The WhatsApp alert of a row, or null when there is nothing to send: WhatsApp was turned off,
 * the kind was turned off for WhatsApp since, the number is gone, opted out or unusable, or what
 * it tells of is hidden by the moderation now. The link is always APP_URL's.
 */
async function composeWhatsapp(row: OutboxRow): Promise<WhatsappAlert | null> {
  if (!whatsappOn() || isAccountEmailKind(row.kind) || row.kind === "saved_search_digest") return null;
  const [notice, to, wanted] = await Promise.all([
    noticeOf(row, null),
    usableNumber(row.user_id),
    wantsKind(row.user_id, row.kind),
  ]);
  if (!notice || !to || !wanted) return null;
  if (notice.hidden && !isModerationKind(row.kind)) return null;
  return {
    to,
    language: templateLanguage(notice.user.locale),
    line: shortLine(row, notice),
    link: `${config.APP_URL}${notice.path}`,
  };
}

/**
 * What a notification's row tells its recipient, in their language, and where it leads; null when
 * the recipient is gone, turned the kind off (in `optOuts`, the row's channel's; null for
 * WhatsApp, whose kinds are turned on instead) or the new messages were read already.
 */
async function noticeOf(row: OutboxRow, optOuts: "email_opt_outs" | "push_opt_outs" | null) {
  const [user, off, application, opportunity, review] = await Promise.all([
    // A deleted account gets no more e-mails but its account ones (the goodbye).
    recipientOf(row).where("deleted_at", "is", null).executeTakeFirst(),
    optOuts
      ? db
          .selectFrom(optOuts)
          .select("kind")
          .where("user_id", "=", row.user_id)
          // The callers have set the account e-mails and the digests aside.
          .where("kind", "=", row.kind as EmailKind)
          .executeTakeFirst()
      : undefined,
    row.application_id
      ? db
          .selectFrom("applications as a")
          .innerJoin("opportunities as o", "o.id", "a.opportunity_id")
          .innerJoin("users as m", "m.id", "o.merchant_id")
          .innerJoin("users as f", "f.id", "a.freelancer_id")
          .select([
            "o.title",
            "o.uuid",
            "o.hidden_at",
            "o.merchant_id",
            "a.freelancer_id",
            "m.profile_hidden_at as merchant_profile_hidden_at",
            "f.profile_hidden_at as freelancer_profile_hidden_at",
            ...PEOPLE_COLUMNS,
          ])
          .where("a.id", "=", row.application_id)
          .executeTakeFirst()
      : undefined,
    !row.application_id && row.opportunity_id
      ? db
          .selectFrom("opportunities")
          .select(["title", "uuid", "hidden_at"])
          .where("id", "=", row.opportunity_id)
          .executeTakeFirst()
      : undefined,
    // The review a contract_reviewed row tells of (its contract is the row's application).
    row.kind === "contract_reviewed" && row.application_id
      ? db
          .selectFrom("reviews")
          .select("hidden_at")
          .where("contract_id", "=", row.application_id)
          .where("subject_id", "=", row.user_id)
          .executeTakeFirst()
      : undefined,
  ]);
  if (!user || off) return null;
  const lng = emailLocale(user.locale);
  const t = fixedT(lng, "market");
  const detail = parseDetail(row.detail);
  // A notice about a ready-made service carries its title (no opportunity holds it).
  const title = application?.title ?? opportunity?.title ?? detail?.service_title ?? "";
  // The other side of the application: who acted.
  let party: ContractParty | null = null;
  let name = t("notifications.someone");
  if (application) {
    party = application.freelancer_id === user.id ? "freelancer" : "merchant";
    name = personJson(application, otherParty(party)).display_name ?? name;
  }
  let event: string;
  if (row.kind === "message_received") {
    if (!row.application_id || !party) return null;
    const unread = await unreadFrom(row.application_id, user.id, otherParty(party));
    if (unread === 0) return null;
    event = t("email.messages", { count: unread, name, title });
  } else {
    event = t(`notifications.kinds.${row.kind}`, {
      name,
      title,
      what: detail?.what ? t(`moderation.what.${detail.what}`, { title }) : "",
      reason: detail?.reason ?? "",
      until: detail?.until ? formatDateTime(detail.until, lng) : "",
      money: noticeMoney(detail, t, (cents) => formatMoney(cents, lng)),
      milestone: detail?.milestone ?? "",
      amount: detail?.amount_cents === undefined ? "" : formatMoney(detail.amount_cents, lng),
      package: detail?.package ?? "",
    });
  }
  return {
    user,
    t,
    event,
    path: pathOf(row, application?.uuid ?? opportunity?.uuid ?? null),
    // What the moderation hid: the opportunity, the review told of, or the profile of the other
    // side, whose name the line would carry.
    hidden: Boolean(
      (application?.hidden_at ?? opportunity?.hidden_at) ||
      review?.hidden_at ||
      (application && party && application[`${otherParty(party)}_profile_hidden_at`]),
    ),
  };
}

/** Messages of `author` in the conversation that `userId` has not read yet (hidden ones aside). */
async function unreadFrom(applicationId: string, userId: string, author: ContractParty) {
  const row = await db
    .selectFrom("messages")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("application_id", "=", applicationId)
    .where("author", "=", author)
    .where("hidden_at", "is", null)
    .where(
      "seq",
      ">",
      sql<number>`coalesce((SELECT last_read_seq FROM conversation_reads WHERE application_id = ${applicationId} AND user_id = ${userId}), 0)`,
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Drains the outbox every `interval` ms (OUTBOX_SECONDS) in this server process, as long as
 * there is anything due; every process of `npm start` runs its own (claims keep them apart).
 * The timer does not keep a stopping server alive.
 */
export function startOutbox(interval: number) {
  return every(interval, "[mail] outbox drain failed", async () => {
    // A full batch means more may be due: go on until a drain finds less.
    for (;;) {
      const r = await drainOutbox();
      if (r.sent + r.skipped + r.retried + r.failed < CLAIM_BATCH) break;
    }
  });
}
