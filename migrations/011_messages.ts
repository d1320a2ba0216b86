import { sql, type Kysely } from "kysely";

// The conversation of each application between its merchant and its freelancer: messages
// numbered 1, 2, … per application (conversations.messages_count hands out the numbers), their
// files (bytes in the store of the photos, as contract files), and how far each side has read.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("conversations")
    .addColumn("application_id", "text", (c) => c.primaryKey().references("applications.id").onDelete("cascade"))
    .addColumn("messages_count", "integer", (c) => c.notNull())
    .addColumn("last_message_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("messages")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("application_id", "text", (c) => c.notNull().references("applications.id").onDelete("cascade"))
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("author", "text", (c) => c.notNull().check(sql`author in ('merchant', 'freelancer')`))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("messages_application_seq", ["application_id", "seq"])
    .execute();

  await db.schema
    .createTable("message_files")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("application_id", "text", (c) => c.notNull().references("applications.id").onDelete("cascade"))
    .addColumn("message_id", "text", (c) => c.notNull().references("messages.id").onDelete("cascade"))
    .addColumn("stored_name", "text", (c) => c.notNull().unique())
    .addColumn("original_name", "text", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("size_bytes", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("message_files_message").on("message_files").column("message_id").execute();

  await db.schema
    .createTable("conversation_reads")
    .addColumn("application_id", "text", (c) => c.notNull().references("applications.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("last_read_seq", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("conversation_reads_pk", ["application_id", "user_id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["conversation_reads", "message_files", "messages", "conversations"]) {
    await db.schema.dropTable(table).execute();
  }
}
