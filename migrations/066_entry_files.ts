import type { Kysely } from "kysely";

// The optional file of a time entry (docs/payments.md, "Contratos por hora"): one file per entry,
// checked and stored as a delivery's (uploads.server.ts), counted against the freelancer's
// storage quota. Columns of the entry rather than a table of their own: an entry has at most one
// file, and it is written and deleted with the entry (null: no file).
const COLUMNS = [
  ["file_stored_name", "text"],
  ["file_original_name", "text"],
  ["file_content_type", "text"],
  ["file_size_bytes", "integer"],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, type] of COLUMNS) await db.schema.alterTable("time_entries").addColumn(name, type).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of COLUMNS) await db.schema.alterTable("time_entries").dropColumn(name).execute();
}
