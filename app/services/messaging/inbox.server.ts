import { asReadBy } from "./contacts.server";
import { sql } from "kysely";
import { excerpt } from "~/lib/format";
import { inboxQuerySchema } from "~/lib/market-schemas";
import { db } from "../../../db";
import type { ContractParty, UserRow } from "../../../db/schema";
import { displayNameOf, photoUrl } from "../accounts/users.server";
import { parseInput } from "../platform/errors.server";
import { offsetOf, pageMeta, type PageMeta } from "../platform/records.server";

// The inbox (/mensagens, GET /api/conversations; docs/product.md, "Mensagens"): every
// conversation of the user that has messages, newest message first, with the other person, the
// opportunity, the last message and how many of the other side's messages are unread. Two
// statements whatever the page: the list and the totals. Both start from the user's own
// conversations, read through the index of each side (migration 017).

/** How much of the last message the list shows. */
export const INBOX_PREVIEW_CHARS = 140;

export type ConversationSummary = {
  application_id: string;
  /** The user's side in it. */
  side: ContractParty;
  opportunity: { uuid: string; title: string };
  other: { id: string; display_name: string; photo_url: string | null };
  last_message: {
    /** Cut to INBOX_PREVIEW_CHARS; empty when an operator hid it. */
    body: string;
    hidden: boolean;
    mine: boolean;
    created_at: string;
  };
  messages_count: number;
  unread: number;
};

export type Inbox = {
  data: ConversationSummary[];
  /** Conversations with unread messages, whatever the filter. */
  unread_conversations: number;
  meta: PageMeta;
};

/** The user's conversations with messages, as rows with their unread count (a subquery). */
const mine = (userId: string) => sql`
  WITH mine AS (
    SELECT c.application_id, c.messages_count, c.last_message_at, c.merchant_id AS other_id,
           'freelancer' AS side, 'merchant' AS other_side
      FROM conversations c WHERE c.freelancer_id = ${userId} AND c.messages_count > 0
    UNION ALL
    SELECT c.application_id, c.messages_count, c.last_message_at, c.freelancer_id AS other_id,
           'merchant' AS side, 'freelancer' AS other_side
      FROM conversations c WHERE c.merchant_id = ${userId} AND c.messages_count > 0
  ),
  counted AS (
    SELECT mine.*,
      CASE WHEN mine.messages_count <= coalesce(r.last_read_seq, 0) THEN 0 ELSE (
        SELECT count(*) FROM messages m
         WHERE m.application_id = mine.application_id AND m.author = mine.other_side
           AND m.seq > coalesce(r.last_read_seq, 0) AND m.hidden_at IS NULL
      ) END AS unread
    FROM mine
    LEFT JOIN conversation_reads r ON r.application_id = mine.application_id AND r.user_id = ${userId}
  )`;

type Row = {
  application_id: string;
  messages_count: number | string;
  side: ContractParty;
  unread: number | string;
  other_id: string;
  display_name: string | null;
  full_name: string;
  photo_path: string | null;
  uuid: string;
  title: string;
  body: string | null;
  masked_body: string | null;
  author: ContractParty | null;
  hidden_at: string | null;
  created_at: string;
};

export async function listConversations(user: Pick<UserRow, "id">, query: unknown): Promise<Inbox> {
  const { filter, page, per_page } = parseInput(inboxQuerySchema, query);
  const unreadOnly = filter === "unread" ? 1 : 0;
  const [list, totals] = await Promise.all([
    sql<Row>`${mine(user.id)}
      SELECT counted.application_id, counted.messages_count, counted.side, counted.unread, counted.other_id,
             u.display_name, u.full_name, u.photo_path, o.uuid, o.title,
             lm.body, lm.masked_body, lm.author, lm.hidden_at, counted.last_message_at AS created_at
        FROM counted
        JOIN applications a ON a.id = counted.application_id
        JOIN opportunities o ON o.id = a.opportunity_id
        JOIN users u ON u.id = counted.other_id
        LEFT JOIN messages lm ON lm.application_id = counted.application_id AND lm.seq = counted.messages_count
       WHERE (${unreadOnly} = 0 OR counted.unread > 0)
       ORDER BY counted.last_message_at DESC, counted.application_id DESC
       LIMIT ${per_page} OFFSET ${offsetOf(page, per_page)}`.execute(db),
    sql<{ total: number | string; unread: number | string | null }>`${mine(user.id)}
      SELECT count(*) AS total, sum(CASE WHEN counted.unread > 0 THEN 1 ELSE 0 END) AS unread FROM counted`.execute(db),
  ]);
  const total = totals.rows[0]!;
  const unreadConversations = Number(total.unread ?? 0);
  return {
    data: list.rows.map((r) => ({
      application_id: r.application_id,
      side: r.side,
      opportunity: { uuid: r.uuid, title: r.title },
      other: { id: r.other_id, display_name: displayNameOf(r), photo_url: photoUrl(r.photo_path) },
      last_message: {
        body: r.hidden_at
          ? ""
          : excerpt(asReadBy(r.body ?? "", r.masked_body, r.author === r.side), INBOX_PREVIEW_CHARS),
        hidden: Boolean(r.hidden_at),
        mine: r.author === r.side,
        created_at: r.created_at,
      },
      messages_count: Number(r.messages_count),
      unread: Number(r.unread),
    })),
    unread_conversations: unreadConversations,
    meta: pageMeta(page, per_page, unreadOnly ? unreadConversations : Number(total.total)),
  };
}
