import type { Kysely } from "kysely";
import { afterCommit, db } from "../../../db";
import type { Database, TimeEntryRow, UserRow } from "../../../db/schema";
import { checkFields } from "~/lib/schemas";
import { timeEntryInputSchema } from "~/lib/work-schemas";
import { AppError } from "../platform/errors.server";
import { asParty } from "../platform/participants.server";
import { assertId } from "../platform/records.server";
import { releaseStorage, reserveStorage } from "../platform/storage.server";
import {
  attachmentProblems,
  deleteAttachment,
  readAttachment,
  saveAttachment,
  type SavedAttachment,
} from "../platform/uploads.server";

// The optional file of a time entry (docs/payments.md, "Contratos por hora"; migration 066): one
// file per entry, checked by its bytes and stored as a delivery's files are (10 MB, the same
// types), counted against the freelancer's storage quota in the entry's transaction. The file is
// stored before the transaction and removed again if the entry is refused (as messages do); an
// entry deleted (open week) takes its file with it and gives its bytes back; editing an entry
// keeps its file. Both sides of the contract may read it.

/** The field a form or the API sends the entry's file in. */
export const ENTRY_FILE_FIELD = "file";

export type EntryFileJson = { name: string; content_type: string; size_bytes: number; url: string };

const fileUrl = (contractId: string, entryId: string) => `/api/contracts/${contractId}/entries/${entryId}/file`;

/** The entry's file as its JSON shows it (null: none). */
export function entryFileJson(e: TimeEntryRow): EntryFileJson | null {
  if (e.file_stored_name === null) return null;
  return {
    name: e.file_original_name ?? "",
    content_type: e.file_content_type ?? "",
    size_bytes: Number(e.file_size_bytes ?? 0),
    url: fileUrl(e.contract_id, e.id),
  };
}

type FileColumns = Pick<
  TimeEntryRow,
  "file_stored_name" | "file_original_name" | "file_content_type" | "file_size_bytes"
>;

/** The entry's file columns for a file saved (or none). */
export const fileColumns = (saved: SavedAttachment | null): FileColumns => ({
  file_stored_name: saved?.stored_name ?? null,
  file_original_name: saved?.original_name ?? null,
  file_content_type: saved?.content_type ?? null,
  file_size_bytes: saved?.size_bytes ?? null,
});

/**
 * An entry's fields and its file checked at once: a refusal names every problem (the text's and
 * the file's) in one 422, before anything is stored.
 */
export async function entryInput(input: unknown, file: Blob | null) {
  const checked = checkFields(timeEntryInputSchema, input);
  if (checked.data !== null) return checked.data;
  const fileErrors = file ? await attachmentProblems([file], ENTRY_FILE_FIELD, 1, "file_one") : {};
  throw new AppError(422, "validation_failed", { ...checked.errors, ...fileErrors });
}

/**
 * Stores `file` (none: nothing) and runs `write` with it; if `write` fails, the stored file is
 * removed again, so a refused entry keeps nothing. `before` runs first, before any file is
 * stored (who may log, and when).
 */
export async function withEntryFile<T>(
  file: Blob | null,
  before: () => Promise<unknown>,
  write: (saved: SavedAttachment | null) => Promise<T>,
): Promise<T> {
  if (!file) return write(null);
  await before();
  const saved = await saveAttachment(file, ENTRY_FILE_FIELD);
  try {
    return await write(saved);
  } catch (error) {
    await deleteAttachment(saved.stored_name);
    throw error;
  }
}

/** Counts a new entry's file against the freelancer's quota, in the entry's transaction (413 on `file`). */
export async function reserveEntryFile(trx: Kysely<Database>, userId: string, saved: SavedAttachment | null) {
  if (saved) await reserveStorage(trx, userId, saved.size_bytes, ENTRY_FILE_FIELD);
}

/**
 * An entry deleted with its file: its bytes go back to the freelancer's quota in the same
 * transaction, and the stored file goes once it commits.
 */
export async function releaseEntryFile(trx: Kysely<Database>, userId: string, entry: TimeEntryRow) {
  const stored = entry.file_stored_name;
  if (stored === null) return;
  await releaseStorage(trx, userId, Number(entry.file_size_bytes ?? 0));
  afterCommit(trx, () => void deleteAttachment(stored));
}

/** An entry's file, for one of the contract's two sides (404 for anyone else, or with no file). */
export async function getEntryFile(user: Pick<UserRow, "id">, contractId: string, entryId: string) {
  await asParty(user, contractId, (id) =>
    db.selectFrom("contracts").select(["id", "merchant_id", "freelancer_id"]).where("id", "=", id).executeTakeFirst(),
  );
  assertId(entryId);
  const entry = await db
    .selectFrom("time_entries")
    .select(["file_stored_name", "file_original_name", "file_content_type"])
    .where("id", "=", entryId)
    .where("contract_id", "=", contractId)
    .executeTakeFirst();
  const stored = entry?.file_stored_name ? await readAttachment(entry.file_stored_name) : null;
  if (!entry || !stored) throw new AppError(404, "not_found");
  return { name: entry.file_original_name ?? "arquivo", contentType: entry.file_content_type!, body: stored.body };
}

/** The one file of an entry's form (none: null); more than one is a 422 on `file`. */
export function oneEntryFile(files: File[]): Blob | null {
  if (files.length > 1) throw new AppError(422, "validation_failed", { [ENTRY_FILE_FIELD]: "entry_file_one" });
  return files[0] ?? null;
}
