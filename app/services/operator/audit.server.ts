import { randomUUID } from "node:crypto";
import { userInfo } from "node:os";
import type { Kysely } from "kysely";
import { auditQuerySchema } from "~/lib/admin-schemas";
import type { AuditAction, AuditTarget } from "~/lib/admin-constants";
import { db } from "../../../db";
import type { AuditLogRow, Database, UserRow } from "../../../db/schema";
import { parseInput } from "../platform/errors.server";
import { newestFirst, now, offsetOf, pageMeta, type PageMeta } from "../platform/records.server";
import { displayNameOf } from "../accounts/users.server";

// The audit log: one row for every operator action, written by recordAudit in the transaction
// of the action itself (so there is never an action without its row, nor a row without its
// action). Append-only: nothing in the app updates or deletes a row, and the database refuses
// to (migration 019's triggers).

/** Who acts: an operator, or the command line (null id). */
export type Actor = { id: string | null; name: string };

/** The operator as the log names them: "Name <e-mail>", kept as it was at the time. */
export function operatorActor(user: Pick<UserRow, "id" | "email" | "display_name" | "full_name">): Actor {
  return { id: user.id, name: `${displayNameOf(user)} <${user.email}>` };
}

/** The command line (operator:create, operator:remove), named after the system user running it. */
export function commandLineActor(): Actor {
  let who = "?";
  try {
    who = userInfo().username;
  } catch {
    // No user name on this system: the entry still says it came from the command line.
  }
  return { id: null, name: `linha de comando (${who})` };
}

export type AuditEntry = {
  action: AuditAction;
  target_type: AuditTarget;
  target_id: string;
  reason?: string | null;
  /** The fields the action changed, as they were and as they became (JSON-serialisable). */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
};

/**
 * Writes one row of the audit log inside the action's transaction. Every operator action calls
 * this, once, with the transaction it changes things in: pass `trx`, never `db`.
 */
export async function recordAudit(trx: Kysely<Database>, actor: Actor, entry: AuditEntry, at = now()) {
  const row: AuditLogRow = {
    id: randomUUID(),
    created_at: at,
    actor_id: actor.id,
    actor_name: actor.name,
    action: entry.action,
    target_type: entry.target_type,
    target_id: entry.target_id,
    reason: entry.reason ?? null,
    before: entry.before ? JSON.stringify(entry.before) : null,
    after: entry.after ? JSON.stringify(entry.after) : null,
  };
  await trx.insertInto("audit_log").values(row).execute();
  return row;
}

export type AuditJson = {
  id: string;
  created_at: string;
  actor: { id: string | null; name: string };
  action: string;
  target: { type: string; id: string };
  reason: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

function parseJson(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
}

export function toAuditJson(row: AuditLogRow): AuditJson {
  return {
    id: row.id,
    created_at: row.created_at,
    actor: { id: row.actor_id, name: row.actor_name },
    action: row.action,
    target: { type: row.target_type, id: row.target_id },
    reason: row.reason,
    before: parseJson(row.before),
    after: parseJson(row.after),
  };
}

/** Counts stop here; past it the total reads "more than" (as the marketplace's lists do). */
const AUDIT_TOTAL_CAP = 1000;

/** The UTC instant a São Paulo day (YYYY-MM-DD) starts (Brasília is UTC−3, without summer time). */
export const saoPauloStart = (date: string) => `${date}T03:00:00.000Z`;
/** The calendar day after a date (YYYY-MM-DD). */
export const nextDay = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

export type AuditListJson = {
  data: AuditJson[];
  meta: PageMeta;
  operators: { id: string; name: string }[];
};

/**
 * The log, newest first, filtered by action, operator (`cli` for the command line), what it is
 * about (type and id) and São Paulo dates (from/to, both included). Three statements: the page,
 * its capped count and the operators for the filter.
 */
export async function listAuditLog(query: unknown): Promise<AuditListJson> {
  const q = parseInput(auditQuerySchema, query);
  const filtered = db
    .selectFrom("audit_log")
    .$if(q.action !== undefined, (qb) => qb.where("action", "=", q.action!))
    .$if(q.actor === "cli", (qb) => qb.where("actor_id", "is", null))
    .$if(q.actor !== undefined && q.actor !== "cli", (qb) => qb.where("actor_id", "=", q.actor!))
    .$if(q.target_type !== undefined, (qb) => qb.where("target_type", "=", q.target_type!))
    .$if(q.target_id !== undefined, (qb) => qb.where("target_id", "=", q.target_id!))
    .$if(q.from !== undefined, (qb) => qb.where("created_at", ">=", saoPauloStart(q.from!)))
    .$if(q.to !== undefined, (qb) => qb.where("created_at", "<", saoPauloStart(nextDay(q.to!))));
  const [rows, counted, operators] = await Promise.all([
    filtered
      .selectAll()
      .$call(newestFirst(q.per_page, offsetOf(q.page, q.per_page)))
      .execute(),
    db
      .selectFrom(
        filtered
          .select("id")
          .limit(AUDIT_TOTAL_CAP + 1)
          .as("capped"),
      )
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("users")
      .select(["id", "display_name", "full_name", "email"])
      .where("account_type", "=", "operator")
      .orderBy("full_name")
      .execute(),
  ]);
  const total = Number(counted.n);
  const capped = total > AUDIT_TOTAL_CAP;
  return {
    data: rows.map(toAuditJson),
    meta: pageMeta(q.page, q.per_page, capped ? AUDIT_TOTAL_CAP : total, capped),
    operators: operators.map((o) => ({ id: o.id, name: `${displayNameOf(o)} <${o.email}>` })),
  };
}
