import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import {
  reportInputSchema,
  reportQueueSchema,
  resolveInputSchema,
  restoreInputSchema,
  type ReportAction,
  type ReportTargetType,
} from "~/lib/admin-schemas";
import { db, transaction } from "../../../db";
import { isUniqueViolation } from "../../../db/dialect";
import type { ReportRow, UserRow } from "../../../db/schema";
import { AppError, parseInput } from "../platform/errors.server";
import { consume, consumeWrite, limiters } from "../platform/rate-limit.server";
import { PEOPLE_COLUMNS, personJson } from "../platform/participants.server";
import { now, offsetOf, pageMeta, type PageMeta } from "../platform/records.server";
import { displayNameOf, parseTags, photoUrl } from "../accounts/users.server";
import { operatorActor, recordAudit } from "./audit.server";
import { applySanction } from "./sanctions.server";
import { assertTargetRef, hideTarget, loadTarget, restoreTarget, type TargetRef } from "./targets.server";

// Reports (README, "Moderação"): any signed-in user reports what they can see (an opportunity, a
// profile, a message, a review, a reply or a ready-made service), once while their report is
// open, a few an hour. The reported person is never told who reported. Operators work a queue of
// targets, each with its open reports together, and resolve them all at once: dismiss, hide the
// content, warn, suspend or ban its author. The resolution's UPDATE takes only reports still open, so of two operators
// resolving one target at once one wins and the other gets 409.

export type ReportReceiptJson = { id: string; status: "open" };

/** A user reports something they can see. 409 while their previous report of it is open. */
export async function reportContent(reporter: UserRow, input: unknown): Promise<ReportReceiptJson> {
  if (reporter.account_type === "operator") throw new AppError(403, "operator_not_marketplace");
  await consumeWrite(reporter.id);
  const data = parseInput(reportInputSchema, input, "report_invalid");
  const ref = { type: data.target_type, id: data.target_id };
  const target = await loadTarget(db, ref);
  // What one cannot see (or does not exist) cannot be reported; one's own content neither.
  if (target?.author_id === reporter.id) throw new AppError(422, "report_own_content");
  if (!target || !target.visibleTo(reporter.id)) throw new AppError(404, "report_target_not_found");
  await consume(limiters.reportByUser, reporter.id, "report_rate_limited");
  const id = randomUUID();
  try {
    await db
      .insertInto("reports")
      .values({
        id,
        reporter_id: reporter.id,
        target_type: ref.type,
        target_id: ref.id,
        author_id: target.author_id,
        reason: data.reason,
        details: data.details ?? null,
        status: "open",
        created_at: now(),
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error, "reports")) throw new AppError(409, "report_already_open");
    throw error;
  }
  return { id, status: "open" };
}

// ---------------------------------------------------------------------------------------------
// The queue

type Person = { id: string; name: string; email: string; account_type: UserRow["account_type"] };

/** What the reported content says, shown to the operator next to the reports. */
export type ContentJson = {
  type: ReportTargetType;
  id: string;
  /** The opportunity it belongs to (the conversation's, the contract's), if any. */
  title: string | null;
  opportunity_uuid: string | null;
  /** The conversation or contract. */
  application_id: string | null;
  text: string;
  hidden: boolean;
  hidden_reason: string | null;
  exists: boolean;
};

export type ReportGroupJson = {
  target: { type: ReportTargetType; id: string };
  author: Person | null;
  status: ReportRow["status"];
  reports_count: number;
  reasons: Record<string, number>;
  first_reported_at: string;
  last_reported_at: string;
  resolution: { action: string; reason: string | null; by: string | null; at: string } | null;
  content: ContentJson;
};

const DAY_MS = 86_400_000;

function personOf(u: {
  id: string;
  display_name: string | null;
  full_name: string;
  email: string;
  account_type: UserRow["account_type"];
}): Person {
  return { id: u.id, name: displayNameOf(u)!, email: u.email, account_type: u.account_type };
}

const PREVIEW = 280;
const preview = (text: string) => (text.length > PREVIEW ? `${text.slice(0, PREVIEW)}…` : text);

/** The content of several targets: one query per kind present, whatever their number. */
async function contentsOf(refs: TargetRef[], full = false): Promise<Map<string, ContentJson>> {
  const ids = (type: ReportTargetType) => [...new Set(refs.filter((r) => r.type === type).map((r) => r.id))];
  const cut = (text: string) => (full ? text : preview(text));
  const out = new Map<string, ContentJson>();
  const key = (type: string, id: string) => `${type}:${id}`;
  const [opportunities, profiles, messages, reviews, services] = await Promise.all([
    ids("opportunity").length
      ? db
          .selectFrom("opportunities")
          .select(["uuid", "title", "description", "hidden_at", "hidden_reason"])
          .where("uuid", "in", ids("opportunity"))
          .execute()
      : [],
    ids("profile").length
      ? db
          .selectFrom("users")
          .select([
            "id",
            "full_name",
            "display_name",
            "bio",
            "skills",
            "city",
            "profile_hidden_at",
            "profile_hidden_reason",
          ])
          .where("id", "in", ids("profile"))
          .execute()
      : [],
    ids("message").length
      ? db
          .selectFrom("messages as m")
          .innerJoin("applications as a", "a.id", "m.application_id")
          .innerJoin("opportunities as o", "o.id", "a.opportunity_id")
          .select(["m.id", "m.body", "m.hidden_at", "m.hidden_reason", "m.application_id", "o.title", "o.uuid"])
          .where("m.id", "in", ids("message"))
          .execute()
      : [],
    ids("review").length + ids("reply").length
      ? db
          .selectFrom("reviews as r")
          .innerJoin("contracts as c", "c.id", "r.contract_id")
          .innerJoin("opportunities as o", "o.id", "c.opportunity_id")
          .select([
            "r.id",
            "r.comment",
            "r.rating",
            "r.reply",
            "r.hidden_at",
            "r.hidden_reason",
            "r.reply_hidden_at",
            "r.reply_hidden_reason",
            "r.contract_id",
            "o.title",
            "o.uuid",
          ])
          .where("r.id", "in", [...ids("review"), ...ids("reply")])
          .execute()
      : [],
    ids("service").length
      ? db
          .selectFrom("services")
          .select(["id", "title", "description", "hidden_at", "hidden_reason"])
          .where("id", "in", ids("service"))
          .execute()
      : [],
  ]);
  // A target found: where it belongs, its text (cut for the queue) and whether it is hidden.
  const found = (
    type: ReportTargetType,
    id: string,
    c: {
      title: string | null;
      opportunity_uuid?: string;
      application_id?: string;
      text: string;
      hidden_at: string | null;
      hidden_reason: string | null;
    },
  ) =>
    out.set(key(type, id), {
      type,
      id,
      title: c.title,
      opportunity_uuid: c.opportunity_uuid ?? null,
      application_id: c.application_id ?? null,
      text: cut(c.text),
      hidden: c.hidden_at !== null,
      hidden_reason: c.hidden_reason,
      exists: true,
    });
  for (const o of opportunities) {
    found("opportunity", o.uuid, { ...o, opportunity_uuid: o.uuid, text: `${o.title}\n\n${o.description}` });
  }
  for (const u of profiles) {
    found("profile", u.id, {
      title: displayNameOf(u),
      text: [u.bio, parseTags(u.skills).join(", "), u.city].filter(Boolean).join("\n\n"),
      hidden_at: u.profile_hidden_at,
      hidden_reason: u.profile_hidden_reason,
    });
  }
  for (const m of messages) found("message", m.id, { ...m, opportunity_uuid: m.uuid, text: m.body });
  for (const r of reviews) {
    const on = { title: r.title, opportunity_uuid: r.uuid, application_id: r.contract_id };
    const stars = `${"★".repeat(r.rating)}${"☆".repeat(5 - r.rating)}`;
    found("review", r.id, {
      ...on,
      text: `${stars} ${r.comment}`,
      hidden_at: r.hidden_at,
      hidden_reason: r.hidden_reason,
    });
    found("reply", r.id, {
      ...on,
      text: r.reply ?? "",
      hidden_at: r.reply_hidden_at,
      hidden_reason: r.reply_hidden_reason,
    });
  }
  for (const sv of services) found("service", sv.id, { ...sv, text: `${sv.title}\n\n${sv.description}` });
  for (const ref of refs) {
    if (!out.has(key(ref.type, ref.id))) {
      // Deleted since it was reported (an opportunity nobody applied to, an account).
      out.set(key(ref.type, ref.id), {
        type: ref.type,
        id: ref.id,
        title: null,
        opportunity_uuid: null,
        application_id: null,
        text: "",
        hidden: false,
        hidden_reason: null,
        exists: false,
      });
    }
  }
  return out;
}

export type ReportQueueJson = { data: ReportGroupJson[]; meta: PageMeta; open_count: number };

/**
 * The queue: reports grouped by target (and, once resolved, by resolution), oldest first, with
 * the content and its author. Filters: kind, status (open by default), the content's author and how long the group
 * has waited (its first report: under a day, a day to a week, older). A fixed number of
 * statements whatever the page size: the groups, their count, their reasons, the open count,
 * the authors, and one per kind of content on the page.
 */
export async function listReportQueue(query: unknown, at = new Date()): Promise<ReportQueueJson> {
  const q = parseInput(reportQueueSchema, query);
  const dayAgo = new Date(at.getTime() - DAY_MS).toISOString();
  const weekAgo = new Date(at.getTime() - 7 * DAY_MS).toISOString();
  const grouped = db
    .selectFrom("reports")
    .where("status", "=", q.status)
    .$if(q.type !== undefined, (qb) => qb.where("target_type", "=", q.type!))
    .$if(q.author !== undefined, (qb) => qb.where("author_id", "=", q.author!))
    .groupBy([
      "target_type",
      "target_id",
      "author_id",
      "status",
      "resolution",
      "resolution_reason",
      "resolved_by",
      "resolved_at",
    ])
    .$if(q.age === "day", (qb) => qb.having((eb) => eb.fn.min("created_at"), ">=", dayAgo))
    .$if(q.age === "week", (qb) =>
      qb.having((eb) => eb.fn.min("created_at"), "<", dayAgo).having((eb) => eb.fn.min("created_at"), ">=", weekAgo),
    )
    .$if(q.age === "older", (qb) => qb.having((eb) => eb.fn.min("created_at"), "<", weekAgo))
    .select([
      "target_type",
      "target_id",
      "author_id",
      "status",
      "resolution",
      "resolution_reason",
      "resolved_by",
      "resolved_at",
      (eb) => eb.fn.countAll<number>().as("reports_count"),
      (eb) => eb.fn.min<string>("created_at").as("first_at"),
      (eb) => eb.fn.max<string>("created_at").as("last_at"),
    ]);
  const [groups, counted, open] = await Promise.all([
    grouped
      .orderBy(q.status === "open" ? "first_at" : "resolved_at", q.status === "open" ? "asc" : "desc")
      .orderBy("target_id")
      .limit(q.per_page)
      .offset(offsetOf(q.page, q.per_page))
      .execute(),
    db
      .selectFrom(grouped.as("g"))
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("reports")
      .select(sql<number>`count(DISTINCT target_type || ':' || target_id)`.as("n"))
      .where("status", "=", "open")
      .executeTakeFirstOrThrow(),
  ]);
  const refs = groups.map((g) => ({ type: g.target_type, id: g.target_id }));
  const authorIds = [...new Set(groups.map((g) => g.author_id))];
  const targetIds = [...new Set(groups.map((g) => g.target_id))];
  const [reasons, authors, contents] = await Promise.all([
    targetIds.length
      ? db
          .selectFrom("reports")
          .select(["target_type", "target_id", "resolved_at", "reason", (eb) => eb.fn.countAll<number>().as("n")])
          .where("status", "=", q.status)
          .where("target_id", "in", targetIds)
          .groupBy(["target_type", "target_id", "resolved_at", "reason"])
          .execute()
      : [],
    authorIds.length
      ? db
          .selectFrom("users")
          .select(["id", "display_name", "full_name", "email", "account_type"])
          .where("id", "in", authorIds)
          .execute()
      : [],
    contentsOf(refs),
  ]);
  const authorById = new Map(authors.map((a) => [a.id, personOf(a)]));
  return {
    data: groups.map((g) => ({
      target: { type: g.target_type, id: g.target_id },
      author: authorById.get(g.author_id) ?? null,
      status: g.status,
      reports_count: Number(g.reports_count),
      reasons: Object.fromEntries(
        reasons
          .filter(
            (r) => r.target_type === g.target_type && r.target_id === g.target_id && r.resolved_at === g.resolved_at,
          )
          .map((r) => [r.reason, Number(r.n)]),
      ),
      first_reported_at: g.first_at,
      last_reported_at: g.last_at,
      resolution:
        g.resolution && g.resolved_at
          ? { action: g.resolution, reason: g.resolution_reason, by: g.resolved_by, at: g.resolved_at }
          : null,
      content: contents.get(`${g.target_type}:${g.target_id}`)!,
    })),
    meta: pageMeta(q.page, q.per_page, Number(counted.n)),
    open_count: Number(open.n),
  };
}

// ---------------------------------------------------------------------------------------------
// One target, in context

export type ReportCaseJson = {
  target: { type: ReportTargetType; id: string };
  content: ContentJson;
  author: (Person & { suspended_until: string | null; banned_at: string | null; created_at: string }) | null;
  /** Earlier resolutions that went against the author (hidden content, warnings, sanctions). */
  author_history: { actioned_reports: number; warnings: number };
  reports: {
    id: string;
    reporter: { id: string; name: string };
    reason: string;
    details: string | null;
    status: ReportRow["status"];
    resolution: string | null;
    resolution_reason: string | null;
    resolved_at: string | null;
    created_at: string;
  }[];
  open_count: number;
  /** The message's conversation around it (up to 5 either side). */
  conversation: {
    id: string;
    seq: number;
    author: string;
    author_name: string;
    body: string;
    hidden: boolean;
    created_at: string;
  }[];
  /** The review's or reply's contract. */
  contract: {
    id: string;
    status: string;
    price_cents: number;
    merchant: string;
    freelancer: string;
    review: { rating: number; comment: string; reply: string | null; author_role: string } | null;
  } | null;
  /** The profile's portfolio. */
  portfolio: { title: string; description: string; link: string | null; image_url: string | null }[];
  /** The profile's photo, set aside or not (operators see it to judge it). */
  photo_url: string | null;
};

const CONTEXT_MESSAGES = 5;

export async function getReportCase(type: string, id: string): Promise<ReportCaseJson> {
  const ref = { type, id } as TargetRef;
  assertTargetRef(ref);
  const reports = await db
    .selectFrom("reports as r")
    .innerJoin("users as u", "u.id", "r.reporter_id")
    .select([
      "r.id",
      "r.reason",
      "r.details",
      "r.status",
      "r.resolution",
      "r.resolution_reason",
      "r.resolved_at",
      "r.created_at",
      "r.author_id",
      "u.id as reporter_id",
      "u.display_name",
      "u.full_name",
    ])
    .where("r.target_type", "=", ref.type)
    .where("r.target_id", "=", ref.id)
    .orderBy("r.created_at", "desc")
    .execute();
  if (!reports.length) throw new AppError(404, "report_not_found");
  const authorId = reports[0]!.author_id;
  const [contents, author, history, warnings, conversation, contract, portfolio] = await Promise.all([
    contentsOf([ref], true),
    db
      .selectFrom("users")
      .select([
        "id",
        "display_name",
        "full_name",
        "email",
        "account_type",
        "suspended_until",
        "banned_at",
        "created_at",
        "photo_path",
        "hidden_photo_path",
      ])
      .where("id", "=", authorId)
      .executeTakeFirst(),
    db
      .selectFrom("reports")
      .select(sql<number>`count(DISTINCT target_type || ':' || target_id)`.as("n"))
      .where("author_id", "=", authorId)
      .where("status", "=", "actioned")
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("target_type", "=", "user")
      .where("target_id", "=", authorId)
      .where("action", "=", "user.warn")
      .executeTakeFirstOrThrow(),
    ref.type === "message" ? conversationAround(ref.id) : [],
    ref.type === "review" || ref.type === "reply" ? reviewedContract(ref.id) : null,
    ref.type === "profile"
      ? db
          .selectFrom("portfolio_items")
          .select(["title", "description", "link", "image_path"])
          .where("user_id", "=", ref.id)
          .orderBy("created_at")
          .execute()
      : [],
  ]);
  return {
    target: ref,
    content: contents.get(`${ref.type}:${ref.id}`)!,
    author: author
      ? {
          ...personOf(author),
          suspended_until: author.suspended_until,
          banned_at: author.banned_at,
          created_at: author.created_at,
        }
      : null,
    author_history: { actioned_reports: Number(history.n), warnings: Number(warnings.n) },
    reports: reports.map((r) => ({
      id: r.id,
      reporter: { id: r.reporter_id, name: displayNameOf(r)! },
      reason: r.reason,
      details: r.details,
      status: r.status,
      resolution: r.resolution,
      resolution_reason: r.resolution_reason,
      resolved_at: r.resolved_at,
      created_at: r.created_at,
    })),
    open_count: reports.filter((r) => r.status === "open").length,
    conversation,
    contract,
    portfolio: portfolio.map((p) => ({
      title: p.title,
      description: p.description,
      link: p.link,
      image_url: photoUrl(p.image_path),
    })),
    photo_url: ref.type === "profile" && author ? photoUrl(author.photo_path ?? author.hidden_photo_path) : null,
  };
}

/** The messages around a reported one (CONTEXT_MESSAGES each side), with their authors' names. */
async function conversationAround(messageId: string): Promise<ReportCaseJson["conversation"]> {
  const messages = await db
    .selectFrom("messages as msg")
    .innerJoin("messages as target", "target.application_id", "msg.application_id")
    .innerJoin("applications as a", "a.id", "msg.application_id")
    .innerJoin("opportunities as o", "o.id", "a.opportunity_id")
    .innerJoin("users as f", "f.id", "a.freelancer_id")
    .innerJoin("users as m", "m.id", "o.merchant_id")
    .select([
      "msg.id",
      "msg.seq",
      "msg.author",
      "msg.body",
      "msg.hidden_at",
      "msg.created_at",
      "o.merchant_id",
      "a.freelancer_id",
      ...PEOPLE_COLUMNS,
    ])
    .where("target.id", "=", messageId)
    .where(sql<boolean>`msg.seq BETWEEN target.seq - ${CONTEXT_MESSAGES} AND target.seq + ${CONTEXT_MESSAGES}`)
    .orderBy("msg.seq")
    .execute();
  return messages.map((m) => ({
    id: m.id,
    seq: m.seq,
    author: m.author,
    author_name: personJson(m, m.author).display_name ?? "",
    body: m.body,
    hidden: m.hidden_at !== null,
    created_at: m.created_at,
  }));
}

/** The contract of a reported review or reply, with the review. */
async function reviewedContract(reviewId: string): Promise<ReportCaseJson["contract"]> {
  const contract = await db
    .selectFrom("reviews as r")
    .innerJoin("contracts as c", "c.id", "r.contract_id")
    .innerJoin("users as m", "m.id", "c.merchant_id")
    .innerJoin("users as f", "f.id", "c.freelancer_id")
    .select([
      "c.id",
      "c.status",
      "c.price_cents",
      "c.merchant_id",
      "c.freelancer_id",
      ...PEOPLE_COLUMNS,
      "r.rating",
      "r.comment",
      "r.reply",
      "r.author_role",
    ])
    .where("r.id", "=", reviewId)
    .executeTakeFirst();
  return contract
    ? {
        id: contract.id,
        status: contract.status,
        price_cents: contract.price_cents,
        merchant: personJson(contract, "merchant").display_name ?? "",
        freelancer: personJson(contract, "freelancer").display_name ?? "",
        review: {
          rating: contract.rating,
          comment: contract.comment,
          reply: contract.reply,
          author_role: contract.author_role,
        },
      }
    : null;
}

// ---------------------------------------------------------------------------------------------
// Resolving

const RESOLUTION_STATUS: Record<ReportAction, "dismissed" | "actioned"> = {
  dismiss: "dismissed",
  hide: "actioned",
  warn: "actioned",
  suspend: "actioned",
  ban: "actioned",
};

export type ResolutionJson = { resolved: number; action: ReportAction; hidden: boolean };

/**
 * Resolves every open report of a target at once: dismiss them, or hide the content, or warn,
 * suspend (N days) or ban its author (hiding it too with `hide`). One transaction: the reports,
 * the action, the notice to the author and one audit row per thing done. 409 when no report of
 * the target is open any more (another operator resolved them first).
 */
export async function resolveReports(
  operator: UserRow,
  type: string,
  id: string,
  input: unknown,
): Promise<ResolutionJson> {
  const ref = { type, id } as TargetRef;
  assertTargetRef(ref);
  const data = parseInput(resolveInputSchema, input);
  const actor = operatorActor(operator);
  const at = now();
  return transaction(async (trx) => {
    const resolved = await trx
      .updateTable("reports")
      .set({
        status: RESOLUTION_STATUS[data.action],
        resolution: data.action,
        resolution_reason: data.reason ?? null,
        resolved_by: operator.id,
        resolved_at: at,
      })
      .where("target_type", "=", ref.type)
      .where("target_id", "=", ref.id)
      .where("status", "=", "open")
      .returning(["id", "author_id"])
      .execute();
    if (!resolved.length) {
      const any = await trx
        .selectFrom("reports")
        .select("id")
        .where("target_type", "=", ref.type)
        .where("target_id", "=", ref.id)
        .executeTakeFirst();
      throw any ? new AppError(409, "report_already_handled") : new AppError(404, "report_not_found");
    }
    const authorId = resolved[0]!.author_id;
    if (data.action === "dismiss") {
      await recordAudit(
        trx,
        actor,
        {
          action: "report.dismiss",
          target_type: ref.type,
          target_id: ref.id,
          reason: data.reason ?? null,
          after: { reports: resolved.length, status: "dismissed" },
        },
        at,
      );
      return { resolved: resolved.length, action: data.action, hidden: false };
    }
    let hidden = false;
    if (data.action === "hide" || data.hide) {
      const target = await loadTarget(trx, ref);
      if (!target) throw new AppError(409, "report_target_gone");
      hidden = await hideTarget(trx, target, data.reason!, at);
      if (hidden) {
        await recordAudit(
          trx,
          actor,
          {
            action: "content.hide",
            target_type: ref.type,
            target_id: ref.id,
            reason: data.reason,
            before: { hidden: false },
            after: { hidden: true, reports: resolved.length },
          },
          at,
        );
      }
    }
    if (data.action !== "hide") {
      await applySanction(trx, actor, authorId, { action: data.action, reason: data.reason!, days: data.days }, at);
    }
    return { resolved: resolved.length, action: data.action, hidden };
  });
}

/** Shows hidden content again (the author is told); 409 when it is not hidden. */
export async function restoreContent(operator: UserRow, type: string, id: string, input: unknown) {
  const ref = { type, id } as TargetRef;
  assertTargetRef(ref);
  const { reason } = parseInput(restoreInputSchema, input);
  const at = now();
  return transaction(async (trx) => {
    const target = await loadTarget(trx, ref);
    if (!target) throw new AppError(404, "not_found");
    if (!(await restoreTarget(trx, target, reason))) throw new AppError(409, "content_not_hidden");
    await recordAudit(
      trx,
      operatorActor(operator),
      {
        action: "content.restore",
        target_type: ref.type,
        target_id: ref.id,
        reason,
        before: { hidden: true, hidden_reason: target.hidden_reason },
        after: { hidden: false },
      },
      at,
    );
    return { restored: true };
  });
}

/**
 * What a report form is about, named for the person reporting: the opportunity's or service's
 * title, or the name of whoever wrote the profile, message, review or reply. Null when they may not see it
 * (the form then says only the kind, and sending it is refused as before).
 */
export async function reportSubject(reporter: Pick<UserRow, "id">, ref: TargetRef): Promise<string | null> {
  const target = await loadTarget(db, ref);
  if (!target || !target.visibleTo(reporter.id)) return null;
  if (ref.type === "opportunity") {
    const row = await db.selectFrom("opportunities").select("title").where("uuid", "=", ref.id).executeTakeFirst();
    return row?.title ?? null;
  }
  if (ref.type === "service") return target.notice?.service_title ?? null;
  const author = await db
    .selectFrom("users")
    .select(["full_name", "display_name"])
    .where("id", "=", target.author_id)
    .executeTakeFirst();
  return displayNameOf(author);
}
