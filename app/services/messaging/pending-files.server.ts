import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { db, transaction } from "../../../db";
import type { Database, PendingFilesTable } from "../../../db/schema";
import { AppError } from "../platform/errors.server";
import { now } from "../platform/records.server";
import { reserveStorage } from "../platform/storage.server";
import { deleteAttachment, saveAttachment, type SavedAttachment } from "../platform/uploads.server";

// Files of a message held back by the contact notice (docs/product.md, "Contatos antes do
// pagamento"). A page without JavaScript cannot send a file input again, so when a message with
// files gets the notice its files are stored as the sender's pending files (checked and counted in
// the quota like any upload) and the notice carries their ids: the form in a hidden field, the API
// in `pending_files`. Sending the message with those ids attaches them (only the sender's own, of
// that conversation); the hourly pruning deletes those left unused after PENDING_FILES_HOURS.

export const PENDING_FILES_HOURS = 24;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type PendingFileJson = { id: string; name: string; size_bytes: number };

const invalid = () => new AppError(422, "validation_failed", { files: "pending_files_invalid" });

/**
 * The ids of `pending_files` in a message's input: a list (JSON) or one field of ids separated by
 * commas (a form); none when absent. Anything else, or more than `max`, is 422 on `files`.
 */
export function pendingFileIds(input: unknown, max: number): string[] {
  const value = typeof input === "object" && input !== null ? (input as Record<string, unknown>).pending_files : null;
  if (value === undefined || value === null || value === "") return [];
  const ids = typeof value === "string" ? value.split(",").map((s) => s.trim()) : value;
  if (!Array.isArray(ids) || ids.length > max || !ids.every((id) => typeof id === "string" && UUID.test(id))) {
    throw invalid();
  }
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

/**
 * Stores `files` as the user's pending files of the conversation (counted in the quota, or 413
 * and nothing kept) and answers them with those already held under `keptIds`.
 */
export async function holdFiles(
  userId: string,
  applicationId: string,
  files: Blob[],
  keptIds: string[],
): Promise<PendingFileJson[]> {
  const saved: SavedAttachment[] = [];
  try {
    for (const file of files) saved.push(await saveAttachment(file, "files"));
    const at = now();
    const rows: PendingFilesTable[] = saved.map((f) => ({
      id: randomUUID(),
      user_id: userId,
      application_id: applicationId,
      ...f,
      created_at: at,
    }));
    await transaction(async (trx) => {
      await reserveStorage(
        trx,
        userId,
        rows.reduce((sum, f) => sum + f.size_bytes, 0),
      );
      if (rows.length) await trx.insertInto("pending_files").values(rows).execute();
    });
    const kept = keptIds.length
      ? await db
          .selectFrom("pending_files")
          .selectAll()
          .where("id", "in", keptIds)
          .where("user_id", "=", userId)
          .where("application_id", "=", applicationId)
          .orderBy("created_at")
          .execute()
      : [];
    return [...kept, ...rows].map((f) => ({ id: f.id, name: f.original_name, size_bytes: f.size_bytes }));
  } catch (error) {
    await Promise.all(saved.map((f) => deleteAttachment(f.stored_name)));
    throw error;
  }
}

/**
 * Takes the user's pending files `ids` of the conversation, in the transaction that attaches
 * them (their bytes are already counted): all of them, or 422 when one is not theirs or is gone
 * (deleted by the pruning, or attached by another request at the same time).
 */
export async function takePendingFiles(
  trx: Kysely<Database>,
  userId: string,
  applicationId: string,
  ids: string[],
): Promise<SavedAttachment[]> {
  if (!ids.length) return [];
  const taken = await trx
    .deleteFrom("pending_files")
    .where("id", "in", ids)
    .where("user_id", "=", userId)
    .where("application_id", "=", applicationId)
    .returning(["stored_name", "original_name", "content_type", "size_bytes", "created_at"])
    .execute();
  if (taken.length !== ids.length) throw invalid();
  return taken
    .sort((a, b) => a.created_at.localeCompare(b.created_at))
    .map(({ created_at: _at, ...file }) => ({ ...file, size_bytes: Number(file.size_bytes) }));
}

/**
 * Deletes the pending files left unused for PENDING_FILES_HOURS and gives their bytes back to the
 * quota; the stored files go after the commit. A DELETE … RETURNING per batch: several processes
 * at once delete each file once.
 */
export async function prunePendingFiles(at = new Date()): Promise<number> {
  const before = new Date(at.getTime() - PENDING_FILES_HOURS * 3_600_000).toISOString();
  const gone = await transaction(async (trx) => {
    const rows = await trx
      .deleteFrom("pending_files")
      .where("created_at", "<", before)
      .returning(["user_id", "stored_name", "size_bytes"])
      .execute();
    const bytes = new Map<string, number>();
    for (const r of rows) bytes.set(r.user_id, (bytes.get(r.user_id) ?? 0) + Number(r.size_bytes));
    for (const [userId, n] of bytes) {
      await trx
        .updateTable("users")
        .set({ storage_bytes: sql`storage_bytes - ${n}` })
        .where("id", "=", userId)
        .execute();
    }
    return rows;
  });
  await Promise.all(gone.map((f) => deleteAttachment(f.stored_name)));
  return gone.length;
}
