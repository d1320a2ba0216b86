import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { MAX_MESSAGE_FILES, MESSAGES_OPEN_DAYS, messageInputSchema } from "~/lib/market-schemas";
import { db, engine, transaction } from "../../../db";
import type { ContractParty, Database, MessageFileRow, MessageRow, UserRow } from "../../../db/schema";
import type { Kysely, OnConflictBuilder, QueryCreator } from "kysely";
import { queueMessageEmail } from "./email.server";
import { AppError } from "../platform/errors.server";
import { asParty } from "../platform/participants.server";
import { assertMayMessage } from "../platform/new-accounts.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { assertId, now } from "../platform/records.server";
import { assertVerifiedEmail } from "../platform/roles.server";
import { insertFiles } from "../platform/storage.server";
import {
  attachmentProblems,
  deleteAttachment,
  readAttachment,
  saveAttachment,
  type SavedAttachment,
} from "../platform/uploads.server";
import { checkFields } from "~/lib/schemas";
import { publish } from "../platform/events.server";
import { detectContacts } from "./contact-detector.server";
import { holdFiles, pendingFileIds, takePendingFiles } from "./pending-files.server";
import { asReadBy, contactConfirmed, flagContact, reportRepeatedContacts, screenContacts } from "./contacts.server";

// The conversation of an application between its merchant and its freelancer, from the moment
// of applying. It closes (read-only) MESSAGES_OPEN_DAYS after the application ends (rejected,
// withdrawn) or, for a hire, after its contract ends (completed, cancelled). Messages are
// numbered per application by conversations.messages_count, bumped in the insert's transaction;
// what each side has read is the last number it saw.

const DAY_MS = 86_400_000;

export type MessageFileJson = { id: string; name: string; content_type: string; size_bytes: number; url: string };
export type MessageJson = {
  id: string;
  seq: number;
  author: ContractParty;
  /** Empty when hidden by an operator (its files are left out too). */
  body: string;
  hidden: boolean;
  /** Why it was hidden, for its author only. */
  hidden_reason: string | null;
  created_at: string;
  files: MessageFileJson[];
};
export type ConversationJson = {
  data: MessageJson[];
  /** Whether a message may be sent now, and until when (null: no end yet). */
  open: boolean;
  closes_at: string | null;
  /** Messages of the other side not seen before this reading (now marked read). */
  unread_count: number;
};

type Access = { party: ContractParty; open: boolean; closesAt: string | null; opportunityId: number; otherId: string };

/** The application's two sides only (404 for anyone else), and whether its conversation is open. */
async function access(
  database: Kysely<Database>,
  user: Pick<UserRow, "id">,
  applicationId: string,
  at = now(),
): Promise<Access> {
  const { row, party } = await asParty(user, applicationId, (id) =>
    database
      .selectFrom("applications as a")
      .innerJoin("opportunities as o", "o.id", "a.opportunity_id")
      .leftJoin("contracts as c", "c.id", "a.id")
      .select([
        "a.status",
        "a.updated_at",
        "a.freelancer_id",
        "a.opportunity_id",
        "o.merchant_id",
        "c.status as contract_status",
        "c.ended_at",
      ])
      .where("a.id", "=", id)
      .executeTakeFirst(),
  );
  const endedAt =
    row.status === "rejected" || row.status === "withdrawn"
      ? row.updated_at
      : row.status === "accepted" && (row.contract_status === "completed" || row.contract_status === "cancelled")
        ? row.ended_at
        : null;
  const closesAt = endedAt ? new Date(Date.parse(endedAt) + MESSAGES_OPEN_DAYS * DAY_MS).toISOString() : null;
  return {
    party,
    open: closesAt === null || closesAt > at,
    closesAt,
    opportunityId: row.opportunity_id,
    otherId: party === "merchant" ? row.freelancer_id : row.merchant_id,
  };
}

const fileUrl = (applicationId: string, fileId: string) =>
  `/api/applications/${applicationId}/messages/files/${fileId}`;

function toMessageJson(message: MessageRow, files: MessageFileRow[], viewer: ContractParty): MessageJson {
  const hidden = message.hidden_at !== null;
  return {
    id: message.id,
    seq: message.seq,
    author: message.author,
    // The other side reads a contact sent before funding masked (contacts.server.ts).
    body: hidden ? "" : asReadBy(message.body, message.masked_body, viewer === message.author),
    hidden,
    hidden_reason: hidden && viewer === message.author ? message.hidden_reason : null,
    created_at: message.created_at,
    files: files
      .filter((f) => !hidden && f.message_id === message.id)
      .map((f) => ({
        id: f.id,
        name: f.original_name,
        content_type: f.content_type,
        size_bytes: f.size_bytes,
        url: fileUrl(f.application_id, f.id),
      })),
  };
}

/** The conversation, oldest first; reading it marks the other side's messages read. */
export async function listMessages(user: UserRow, applicationId: string): Promise<ConversationJson> {
  const { party, open, closesAt } = await access(db, user, applicationId);
  const [messages, files, read] = await Promise.all([
    db.selectFrom("messages").selectAll().where("application_id", "=", applicationId).orderBy("seq").execute(),
    db
      .selectFrom("message_files")
      .selectAll()
      .where("application_id", "=", applicationId)
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("conversation_reads")
      .select("last_read_seq")
      .where("application_id", "=", applicationId)
      .where("user_id", "=", user.id)
      .executeTakeFirst(),
  ]);
  const lastRead = read?.last_read_seq ?? 0;
  const unread = messages.filter((m) => m.seq > lastRead && m.author !== party && m.hidden_at === null).length;
  const last = messages.at(-1)?.seq ?? 0;
  if (last > lastRead) await markRead(user.id, applicationId, last);
  return {
    data: messages.map((m) => toMessageJson(m, files, party)),
    open,
    closes_at: closesAt,
    unread_count: unread,
  };
}

/** Moves the user's read mark forward to `seq`, never back (two tabs may race). */
async function markRead(userId: string, applicationId: string, seq: number) {
  await db
    .insertInto("conversation_reads")
    .values({ application_id: applicationId, user_id: userId, last_read_seq: seq })
    .onConflict((oc) =>
      oc
        .columns(["application_id", "user_id"])
        .doUpdateSet({ last_read_seq: seq })
        .where("conversation_reads.last_read_seq", "<", seq),
    )
    .execute();
}

type NewMessage = {
  applicationId: string;
  authorId: string;
  party: ContractParty;
  otherId: string;
  body: string;
  maskedBody: string | null;
  at: string;
};

/**
 * The message's three writes: the conversation's next number (taken atomically, so two messages
 * sent at once get two numbers), the message, and its author's read mark (they have read their
 * own conversation up to here). On PostgreSQL in one statement, as data-modifying CTEs: sending a
 * message is mostly round trips to the database.
 */
async function writeMessage(trx: Kysely<Database>, m: NewMessage): Promise<MessageRow> {
  const conversation = {
    application_id: m.applicationId,
    freelancer_id: m.party === "freelancer" ? m.authorId : m.otherId,
    merchant_id: m.party === "merchant" ? m.authorId : m.otherId,
    messages_count: 1,
    last_message_at: m.at,
  };
  const numbered = (q: QueryCreator<Database>) =>
    q
      .insertInto("conversations")
      .values(conversation)
      .onConflict((oc) =>
        oc
          .column("application_id")
          .doUpdateSet({ messages_count: sql<number>`conversations.messages_count + 1`, last_message_at: m.at }),
      )
      .returning("messages_count");
  // The message but its number.
  const draft = {
    id: randomUUID(),
    application_id: m.applicationId,
    author: m.party,
    body: m.body,
    masked_body: m.maskedBody,
    hidden_at: null,
    hidden_reason: null,
    created_at: m.at,
  };
  const readMarkMoved = (oc: OnConflictBuilder<Database, "conversation_reads">) =>
    oc.columns(["application_id", "user_id"]).doUpdateSet({ last_read_seq: (eb) => eb.ref("excluded.last_read_seq") });
  if (engine === "postgres") {
    const { last_read_seq: seq } = await trx
      .with("c", numbered)
      .with("m", (q) =>
        q
          .insertInto("messages")
          .columns([
            "id",
            "application_id",
            "seq",
            "author",
            "body",
            "masked_body",
            "hidden_at",
            "hidden_reason",
            "created_at",
          ])
          .expression((eb) =>
            eb
              .selectFrom("c")
              .select([
                eb.val(draft.id).as("id"),
                eb.val(draft.application_id).as("application_id"),
                "c.messages_count as seq",
                eb.val(draft.author).as("author"),
                eb.val(draft.body).as("body"),
                eb.val(draft.masked_body).as("masked_body"),
                sql<null>`NULL`.as("hidden_at"),
                sql<null>`NULL`.as("hidden_reason"),
                eb.val(draft.created_at).as("created_at"),
              ]),
          )
          .returning("seq"),
      )
      .insertInto("conversation_reads")
      .columns(["application_id", "user_id", "last_read_seq"])
      .expression((eb) =>
        eb
          .selectFrom("m")
          .select([
            eb.val(m.applicationId).as("application_id"),
            eb.val(m.authorId).as("user_id"),
            "m.seq as last_read_seq",
          ]),
      )
      .onConflict(readMarkMoved)
      .returning("last_read_seq")
      .executeTakeFirstOrThrow();
    return { ...draft, seq };
  }
  const { messages_count: seq } = await numbered(trx).executeTakeFirstOrThrow();
  const message: MessageRow = { ...draft, seq };
  await trx.insertInto("messages").values(message).execute();
  await trx
    .insertInto("conversation_reads")
    .values({ application_id: m.applicationId, user_id: m.authorId, last_read_seq: seq })
    .onConflict(readMarkMoved)
    .execute();
  return message;
}

/**
 * Sends a message (text up to 4 000 characters, up to 5 files checked by content, 10 MB each).
 * The files are stored first and removed again if the message is refused.
 */
export async function sendMessage(
  user: UserRow,
  applicationId: string,
  input: unknown,
  files: Blob[] = [],
): Promise<MessageJson> {
  assertVerifiedEmail(user);
  await consumeWrite(user.id);
  const checked = checkFields(messageInputSchema, input);
  // Files held back by an earlier contact notice (pending-files.server.ts), by their ids.
  const pendingIds = pendingFileIds(input, MAX_MESSAGE_FILES);
  if (checked.data === null || files.length + pendingIds.length > MAX_MESSAGE_FILES) {
    // The text's problems and the files' in one answer.
    const fileErrors = await attachmentProblems(files, "files", MAX_MESSAGE_FILES, "message_files_too_many");
    throw new AppError(422, "validation_failed", { ...checked.errors, ...fileErrors }, { max: MAX_MESSAGE_FILES });
  }
  const { body } = checked.data;
  // Before storing files, and a contact before funding: the notice first, unless confirmed (the
  // transaction checks access again; an ordinary message without files goes straight to it).
  const scan = detectContacts(body);
  const before = files.length || pendingIds.length || scan.spans.length ? await access(db, user, applicationId) : null;
  if (before && !before.open) throw new AppError(409, "conversation_closed");
  // A new account's limits before the notice about contacts (a link it may not send at all is
  // refused as such, not offered "send anyway"); the transaction checks them again.
  if (before) await assertMayMessage(db, user, { applicationId, ...before, body }, now());
  const screened = before
    ? await screenContacts(db, body, {
        authorId: user.id,
        otherId: before.otherId,
        confirmed: contactConfirmed(input),
        field: "body",
        scan,
      }).catch(async (error: unknown) => {
        // The notice keeps the files: held as the sender's, sent again by their ids.
        if (error instanceof AppError && error.key === "contact_detected" && (files.length || pendingIds.length)) {
          error.body = { ...error.body, pending_files: await holdFiles(user.id, applicationId, files, pendingIds) };
        }
        throw error;
      })
    : { masked: null, kinds: [] };
  const saved: SavedAttachment[] = [];
  try {
    for (const file of files) saved.push(await saveAttachment(file, "files"));
    const sent = await transaction(async (trx) => {
      const { party, open, opportunityId, otherId } = await access(trx, user, applicationId);
      if (!open) throw new AppError(409, "conversation_closed");
      const at = now();
      await assertMayMessage(trx, user, { applicationId, party, otherId, body }, at);
      const message = await writeMessage(trx, {
        applicationId,
        authorId: user.id,
        party,
        otherId,
        body,
        maskedBody: screened.masked,
        at,
      });
      await flagContact(trx, screened, { userId: user.id, source: "message", sourceId: message.id, at });
      const fileRow = (f: SavedAttachment): MessageFileRow => ({
        id: randomUUID(),
        application_id: applicationId,
        message_id: message.id,
        ...f,
        created_at: at,
      });
      // Held files are already counted in the quota; the new ones are counted now.
      const heldRows = (await takePendingFiles(trx, user.id, applicationId, pendingIds)).map(fileRow);
      if (heldRows.length) await trx.insertInto("message_files").values(heldRows).execute();
      const newRows = saved.map(fileRow);
      await insertFiles(trx, user.id, "message_files", newRows);
      const fileRows = [...heldRows, ...newRows];
      // The other side hears of it by e-mail, at most once per conversation every 10 minutes.
      await queueMessageEmail(
        trx,
        { user_id: otherId, application_id: applicationId, opportunity_id: opportunityId },
        at,
      );
      // Both sides' open pages (the author's other tabs too) read the conversation again.
      await publish(trx, [
        { user_id: otherId, kind: "message", ref: applicationId },
        { user_id: user.id, kind: "message", ref: applicationId },
      ]);
      return toMessageJson(message, fileRows, party);
    });
    await reportRepeatedContacts(screened, user.id);
    return sent;
  } catch (error) {
    await Promise.all(saved.map((f) => deleteAttachment(f.stored_name)));
    throw error;
  }
}

/**
 * Unread messages per conversation of the user (only those with any) and in all, leaving out the
 * conversation `except` (the one being read). One statement, run on every page of the shell: it
 * starts from the user's own conversations (indexed by each side), and only those with more
 * messages than the user has read go on to count the other side's messages.
 */
export async function unreadMessages(
  user: Pick<UserRow, "id">,
  except = "",
): Promise<{ total: number; by_application: Record<string, number> }> {
  const unread = (side: "freelancer_id" | "merchant_id", author: ContractParty) => sql`
    SELECT c.application_id, count(*) AS n FROM conversations c
    LEFT JOIN conversation_reads r ON r.application_id = c.application_id AND r.user_id = ${user.id}
    JOIN messages m ON m.application_id = c.application_id AND m.author = ${author} AND m.seq > coalesce(r.last_read_seq, 0) AND m.hidden_at IS NULL
    WHERE c.${sql.ref(side)} = ${user.id} AND c.messages_count > coalesce(r.last_read_seq, 0) AND c.application_id != ${except}
    GROUP BY c.application_id`;
  const { rows } = await sql<{ application_id: string; n: number }>`
    ${unread("freelancer_id", "merchant")} UNION ALL ${unread("merchant_id", "freelancer")}`.execute(db);
  const by_application = Object.fromEntries(rows.map((r) => [r.application_id, Number(r.n)]));
  return { total: rows.reduce((sum, r) => sum + Number(r.n), 0), by_application };
}

/** A message's file, for the application's two sides only (404 for anyone else). */
export async function getMessageFile(user: UserRow, applicationId: string, fileId: string) {
  await access(db, user, applicationId);
  assertId(fileId);
  const file = await db
    .selectFrom("message_files")
    .innerJoin("messages", "messages.id", "message_files.message_id")
    .selectAll("message_files")
    .where("message_files.id", "=", fileId)
    .where("message_files.application_id", "=", applicationId)
    // A hidden message's files are hidden with it.
    .where("messages.hidden_at", "is", null)
    .executeTakeFirst();
  const stored = file ? await readAttachment(file.stored_name) : null;
  if (!file || !stored) throw new AppError(404, "not_found");
  return { name: file.original_name, contentType: file.content_type, body: stored.body };
}
