import { sql } from "kysely";
import { userQuerySchema } from "~/lib/admin-schemas";
import { foldKey } from "~/lib/directory";
import { db } from "../../../db";
import type { IdentityStatus, UserRow } from "../../../db/schema";
import { AppError, parseInput } from "../platform/errors.server";
import { assertId, newestFirst, now, offsetOf, pageMeta, type PageMeta } from "../platform/records.server";
import { displayNameOf, photoUrl } from "../accounts/users.server";
import { toAuditJson, type AuditJson } from "./audit.server";

// The people of the marketplace as the operator sees them: a list to find someone (name or
// e-mail, role, standing), and one person's page with their standing, what was reported of
// theirs, their running contracts (flagged ones first) and what operators did about them.

export type MemberStatus = "active" | "suspended" | "banned";

export type MemberJson = {
  id: string;
  name: string;
  email: string;
  account_type: UserRow["account_type"];
  status: MemberStatus;
  suspended_until: string | null;
  banned_at: string | null;
  sanction_reason: string | null;
  profile_hidden: boolean;
  created_at: string;
};

function statusOf(u: Pick<UserRow, "suspended_until" | "banned_at">, at: string): MemberStatus {
  if (u.banned_at) return "banned";
  if (u.suspended_until && u.suspended_until > at) return "suspended";
  return "active";
}

function toMemberJson(u: UserRow, at: string): MemberJson {
  return {
    id: u.id,
    name: displayNameOf(u)!,
    email: u.email,
    account_type: u.account_type,
    status: statusOf(u, at),
    suspended_until: u.suspended_until,
    banned_at: u.banned_at,
    sanction_reason: u.sanction_reason,
    profile_hidden: u.profile_hidden_at !== null,
    created_at: u.created_at,
  };
}

/** Newest first; `q` matches a part of the name or the e-mail. Two statements. */
export async function listMembers(query: unknown): Promise<{ data: MemberJson[]; meta: PageMeta }> {
  const q = parseInput(userQuerySchema, query);
  const at = now();
  const words = q.q ? foldKey(q.q) : "";
  const filtered = db
    .selectFrom("users")
    .$if(q.role !== undefined, (qb) => qb.where("account_type", "=", q.role!))
    .$if(q.status === "banned", (qb) => qb.where("banned_at", "is not", null))
    .$if(q.status === "suspended", (qb) => qb.where("banned_at", "is", null).where("suspended_until", ">", at))
    .$if(q.status === "active", (qb) =>
      qb
        .where("banned_at", "is", null)
        .where((eb) => eb.or([eb("suspended_until", "is", null), eb("suspended_until", "<=", at)])),
    )
    .$if(q.status === "profile_hidden", (qb) => qb.where("profile_hidden_at", "is not", null))
    .$if(words !== "", (qb) =>
      qb.where((eb) =>
        eb.or([
          sql<boolean>`email LIKE ${`%${escapeLike(q.q!.toLowerCase())}%`} ESCAPE '\\'`,
          sql<boolean>`search_text LIKE ${`%${escapeLike(words)}%`} ESCAPE '\\'`,
        ]),
      ),
    );
  const [rows, counted] = await Promise.all([
    filtered
      .selectAll()
      .$call(newestFirst(q.per_page, offsetOf(q.page, q.per_page)))
      .execute(),
    filtered.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { data: rows.map((u) => toMemberJson(u, at)), meta: pageMeta(q.page, q.per_page, Number(counted.n)) };
}

/** LIKE's wildcards typed by the operator match themselves. */
function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The person's identity as the console shows it: its state and decision, the document masked
 * (in full only in the identity queue, GET /api/admin/identity/:id) and how many other accounts
 * tried the same document or hold the one it tried (docs/product.md, "Identidade").
 */
export type MemberIdentityJson = {
  status: IdentityStatus | "none";
  kind: "person" | "company" | null;
  document_masked: string | null;
  submitted_at: string | null;
  decided_at: string | null;
  /** Why it was rejected. */
  reason: string | null;
  shared_with: number;
};

/** "•••.•••.789-09", "••.•••.678/0001-95": enough to tell documents apart, not to use one. */
export function maskDocument(document: string | null): string | null {
  if (!document) return null;
  return document.length === 11
    ? `•••.•••.${document.slice(6, 9)}-${document.slice(9)}`
    : `••.•••.${document.slice(5, 8)}/${document.slice(8, 12)}-${document.slice(12)}`;
}

export type MemberDetailJson = MemberJson & {
  photo_url: string | null;
  identity: MemberIdentityJson;
  reports: { open: number; actioned: number; dismissed: number };
  open_reports: { type: string; id: string; count: number }[];
  contracts: {
    id: string;
    title: string;
    status: string;
    role: "merchant" | "freelancer";
    price_cents: number;
    flagged_at: string | null;
    flag_reason: string | null;
  }[];
  audit: AuditJson[];
};

const RECENT = 50;

/** One person, with what the console needs to judge and act. Five statements (the identity joins the person's). */
export async function getMember(id: string): Promise<MemberDetailJson> {
  assertId(id, "user_not_found");
  const at = now();
  const [user, reports, open, contracts, audit] = await Promise.all([
    db
      .selectFrom("users as u")
      .leftJoin("identities as i", "i.user_id", "u.id")
      .selectAll("u")
      .select([
        "i.status as identity_status",
        "i.kind as identity_kind",
        "i.document as identity_document",
        "i.submitted_at as identity_submitted_at",
        "i.decided_at as identity_decided_at",
        "i.reason as identity_reason",
        sql<number | string>`(SELECT count(*) FROM (
          SELECT holder_user_id AS other_id FROM identity_conflicts WHERE user_id = ${id}
          UNION SELECT user_id FROM identity_conflicts WHERE holder_user_id = ${id}) s)`.as("identity_shared"),
      ])
      .where("u.id", "=", id)
      .executeTakeFirst(),
    db
      .selectFrom("reports")
      .select(["status", sql<number>`count(DISTINCT target_type || ':' || target_id)`.as("n")])
      .where("author_id", "=", id)
      .groupBy("status")
      .execute(),
    db
      .selectFrom("reports")
      .select(["target_type", "target_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("author_id", "=", id)
      .where("status", "=", "open")
      .groupBy(["target_type", "target_id"])
      .orderBy("target_type")
      .limit(RECENT)
      .execute(),
    db
      .selectFrom("contracts as c")
      .innerJoin("opportunities as o", "o.id", "c.opportunity_id")
      .select(["c.id", "o.title", "c.status", "c.merchant_id", "c.price_cents", "c.flagged_at", "c.flag_reason"])
      .where((eb) => eb.or([eb("c.merchant_id", "=", id), eb("c.freelancer_id", "=", id)]))
      .orderBy(sql`c.flagged_at IS NULL`)
      .orderBy("c.updated_at", "desc")
      .limit(RECENT)
      .execute(),
    db
      .selectFrom("audit_log")
      .selectAll()
      .where("target_type", "=", "user")
      .where("target_id", "=", id)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(RECENT)
      .execute(),
  ]);
  if (!user) throw new AppError(404, "user_not_found");
  const count = (status: string) => Number(reports.find((r) => r.status === status)?.n ?? 0);
  return {
    ...toMemberJson(user, at),
    photo_url: photoUrl(user.photo_path ?? user.hidden_photo_path),
    identity: {
      status: user.identity_status ?? "none",
      kind: user.identity_kind,
      document_masked: maskDocument(user.identity_document),
      submitted_at: user.identity_submitted_at,
      decided_at: user.identity_decided_at,
      reason: user.identity_status === "rejected" ? user.identity_reason : null,
      shared_with: Number(user.identity_shared),
    },
    reports: { open: count("open"), actioned: count("actioned"), dismissed: count("dismissed") },
    open_reports: open.map((r) => ({ type: r.target_type, id: r.target_id, count: Number(r.n) })),
    contracts: contracts.map((c) => ({
      id: c.id,
      title: c.title,
      status: c.status,
      role: c.merchant_id === id ? "merchant" : "freelancer",
      price_cents: c.price_cents,
      flagged_at: c.flagged_at,
      flag_reason: c.flag_reason,
    })),
    audit: audit.map(toAuditJson),
  };
}
