import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { markReadInputSchema, notificationListQuerySchema } from "~/lib/market-schemas";
import { notificationTarget, openedRecord } from "~/lib/notifications";
import { db } from "../../../db";
import type { Database, NotificationKind, UserRow } from "../../../db/schema";
import { queueEmails } from "./email.server";
import { parseInput } from "../platform/errors.server";
import { now, offsetOf, pageMeta, type PageMeta } from "../platform/records.server";
import { displayNameOf, photoUrl } from "../accounts/users.server";
import { parseDetail, type ModerationDetail } from "~/lib/moderation";
import type { Party, Sides } from "../platform/participants.server";
import { publish } from "../platform/events.server";

export type NotificationInput = {
  user_id: string;
  kind: NotificationKind;
  application_id: string | null;
  opportunity_id: number | null;
  /** Notices of moderation: what, why and until when (shown in the notification and its e-mail). */
  detail?: ModerationDetail | null;
};

export type NotificationJson = {
  id: string;
  kind: NotificationKind;
  application_id: string | null;
  opportunity_uuid: string | null;
  opportunity_title: string | null;
  /** The other party of the application: who acted. */
  actor: { id: string; display_name: string | null; photo_url: string | null } | null;
  /** Notices of moderation: what, why and until when. */
  detail: ModerationDetail | null;
  created_at: string;
  read_at: string | null;
};

// SQLite takes at most 32 766 bound values per statement; 500 rows of 6 stay far below.
const INSERT_CHUNK = 500;

/**
 * Records notifications inside the caller's transaction (pass the transaction, never `db`,
 * or the insert would wait for the connection the transaction holds), and queues their e-mails
 * in it for the recipients who have that kind on (email.server.ts).
 */
export async function notify(trx: Kysely<Database>, input: NotificationInput | NotificationInput[]) {
  const list = Array.isArray(input) ? input : [input];
  const createdAt = now();
  for (let i = 0; i < list.length; i += INSERT_CHUNK) {
    const chunk = list.slice(i, i + INSERT_CHUNK);
    await trx
      .insertInto("notifications")
      .values(
        chunk.map((n) => ({
          id: randomUUID(),
          user_id: n.user_id,
          kind: n.kind,
          application_id: n.application_id,
          opportunity_id: n.opportunity_id,
          detail: n.detail ? JSON.stringify(n.detail) : null,
          created_at: createdAt,
          read_at: null,
        })),
      )
      .execute();
    await queueEmails(trx, chunk, createdAt);
  }
  // The recipients' open pages update their bell (no text: the page reads the notification).
  await publish(
    trx,
    list.map((n) => ({ user_id: n.user_id, kind: "notification" as const, ref: n.application_id })),
  );
}

/** Tells the other side of a deal, after `party` moved: the deal is an application, or its contract (same id). */
export function notifyOtherSide(
  trx: Kysely<Database>,
  party: Party,
  deal: Sides & { id: string; opportunity_id: number },
  kind: NotificationKind,
  detail?: ModerationDetail | null,
) {
  return notify(trx, {
    user_id: party === "merchant" ? deal.freelancer_id : deal.merchant_id,
    kind,
    application_id: deal.id,
    opportunity_id: deal.opportunity_id,
    detail,
  });
}

export async function unreadCount(userId: string): Promise<number> {
  const row = await db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .where("read_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The user's notifications, newest first, with the unread badge count. Three queries. */
export async function listNotifications(
  user: UserRow,
  query: unknown,
): Promise<{ data: NotificationJson[]; unread_count: number; meta: PageMeta }> {
  const { page, per_page, unread } = parseInput(notificationListQuerySchema, query);
  const base = notificationsOf(user.id).$if(unread === true, (qb) => qb.where("notifications.read_at", "is", null));
  const [{ total }, data, unreadTotal] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow(),
    notificationPage(base, per_page, offsetOf(page, per_page)),
    unreadCount(user.id),
  ]);
  return { data, unread_count: unreadTotal, meta: pageMeta(page, per_page, Number(total)) };
}

/**
 * The top bar's bell on every page of the shell: the unread count and the latest few. Two
 * statements: the list's page total is not needed there.
 */
export async function bellOf(user: Pick<UserRow, "id">, latest = 5) {
  const base = notificationsOf(user.id);
  const [data, unread] = await Promise.all([notificationPage(base, latest, 0), unreadCount(user.id)]);
  return { unread, latest: data };
}

type NotificationBase = ReturnType<typeof notificationsOf>;
const notificationsOf = (userId: string) => db.selectFrom("notifications").where("notifications.user_id", "=", userId);

/** A page of `base`'s notifications, newest first, with the opportunity and the other party. */
async function notificationPage(base: NotificationBase, limit: number, offset: number): Promise<NotificationJson[]> {
  const rows = await base
    .leftJoin("opportunities as o", "o.id", "notifications.opportunity_id")
    .leftJoin("applications as a", "a.id", "notifications.application_id")
    // The actor is the other party: the freelancer when a merchant is notified, else the merchant
    // (who, for an invitation, is the opportunity's owner: there is no application yet).
    .leftJoin("users as actor", (join) =>
      join.on(
        sql`actor.id`,
        "=",
        sql`CASE WHEN notifications.kind = 'invitation_received' OR a.freelancer_id = notifications.user_id THEN o.merchant_id ELSE a.freelancer_id END`,
      ),
    )
    .select([
      "notifications.id",
      "notifications.kind",
      "notifications.application_id",
      "notifications.created_at",
      "notifications.read_at",
      "notifications.detail",
      "o.uuid as opportunity_uuid",
      "o.title as opportunity_title",
      "actor.id as actor_id",
      "actor.display_name as actor_display_name",
      "actor.full_name as actor_full_name",
      "actor.photo_path as actor_photo_path",
    ])
    .orderBy("notifications.created_at", "desc")
    .orderBy("notifications.id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    application_id: r.application_id,
    opportunity_uuid: r.opportunity_uuid ?? null,
    opportunity_title: r.opportunity_title ?? null,
    actor: r.actor_id
      ? {
          id: r.actor_id,
          display_name: displayNameOf({
            display_name: r.actor_display_name ?? null,
            full_name: r.actor_full_name ?? "",
          }),
          photo_url: photoUrl(r.actor_photo_path ?? null),
        }
      : null,
    detail: parseDetail(r.detail),
    created_at: r.created_at,
    read_at: r.read_at,
  }));
}

/** Marks the given notifications (or, with no ids, all of them) as read. Only the user's own. */
export async function markNotificationsRead(user: UserRow, ids?: unknown): Promise<{ unread_count: number }> {
  const parsed = parseInput(markReadInputSchema, { ids: ids ?? undefined });
  if (parsed.ids?.length === 0) return { unread_count: await unreadCount(user.id) };
  await db
    .updateTable("notifications")
    .set({ read_at: now() })
    .where("user_id", "=", user.id)
    .where("read_at", "is", null)
    .$if(parsed.ids !== undefined, (qb) => qb.where("id", "in", parsed.ids!))
    .execute();
  return { unread_count: await unreadCount(user.id) };
}

/**
 * Opening a record (an application, its negotiation or conversation, a contract, the invitations)
 * reads the user's notifications that lead to it, however the user got there: the bell counts
 * what is still news. Nothing for any other page; two statements at most for a record's.
 */
export async function readOpenedRecord(user: UserRow, pathname: string): Promise<void> {
  const record = openedRecord(pathname);
  if (!record) return;
  const unread = await db
    .selectFrom("notifications")
    .select(["id", "kind", "application_id"])
    .where("user_id", "=", user.id)
    .where("read_at", "is", null)
    .$if(record.id !== null, (qb) => qb.where("application_id", "=", record.id!))
    .$if(record.id === null, (qb) => qb.where("application_id", "is", null))
    .execute();
  const ids = unread
    .filter((n) => notificationTarget({ ...n, opportunity_uuid: null }) === record.target)
    .map((n) => n.id);
  if (ids.length === 0) return;
  await db
    .updateTable("notifications")
    .set({ read_at: now() })
    .where("user_id", "=", user.id)
    .where("id", "in", ids)
    .where("read_at", "is", null)
    .execute();
}
