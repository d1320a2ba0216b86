import type { Kysely } from "kysely";

// Saved searches (docs/product.md, "Buscas salvas e alertas"): a freelancer's filter set of the
// opportunity list, with a name and how often its new matches are e-mailed (immediate, daily,
// weekly, or off). `filters` is the list's own query, normalised (JSON). `watermark` is the id of
// the newest opportunity already considered: a digest lists only those after it, and the job moves
// it in the transaction that queues the e-mail, with the old value in the WHERE (one winner).
// `next_run_at` is when the search is next due.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("saved_searches")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("filters", "text", (c) => c.notNull())
    .addColumn("frequency", "text", (c) => c.notNull())
    .addColumn("watermark", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_run_at", "text", (c) => c.notNull())
    .addColumn("last_sent_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("saved_searches_user").on("saved_searches").columns(["user_id", "created_at"]).execute();
  await db.schema
    .createIndex("saved_searches_due")
    .on("saved_searches")
    .columns(["frequency", "next_run_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("saved_searches").execute();
}
