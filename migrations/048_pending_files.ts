import { type Kysely } from "kysely";

// Files of a message held back by the contact notice (docs/product.md, "Contatos antes do
// pagamento"): stored and counted in the sender's quota when the notice answers, attached when
// the sender sends the message (by their ids, only the sender's own), deleted by the hourly
// pruning when left unused.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("pending_files")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("application_id", "text", (c) => c.notNull().references("applications.id").onDelete("cascade"))
    .addColumn("stored_name", "text", (c) => c.notNull().unique())
    .addColumn("original_name", "text", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("size_bytes", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("pending_files_user").on("pending_files").column("user_id").execute();
  await db.schema.createIndex("pending_files_created").on("pending_files").column("created_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("pending_files").execute();
}
