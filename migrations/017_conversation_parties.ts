import { sql, type Kysely } from "kysely";

// Each conversation names its two sides, so a user's conversations are read through an index
// of their own: the unread count on every page used to start from all of a freelancer's
// applications (or all the applications to a merchant's opportunities) to find the few that
// have a conversation. Conversations made before this get their sides from the application.

export async function up(db: Kysely<unknown>): Promise<void> {
  // Nullable at the database level (SQLite adds a referencing column only with NULL as its
  // default); every conversation gets both here, and sendMessage sets them on each new one.
  await db.schema
    .alterTable("conversations")
    .addColumn("freelancer_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .execute();
  await db.schema
    .alterTable("conversations")
    .addColumn("merchant_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .execute();
  await sql`
    UPDATE conversations SET
      freelancer_id = (SELECT a.freelancer_id FROM applications a WHERE a.id = conversations.application_id),
      merchant_id = (
        SELECT o.merchant_id FROM applications a JOIN opportunities o ON o.id = a.opportunity_id
        WHERE a.id = conversations.application_id
      )`.execute(db);
  await db.schema.createIndex("conversations_freelancer").on("conversations").column("freelancer_id").execute();
  await db.schema.createIndex("conversations_merchant").on("conversations").column("merchant_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("conversations_merchant").execute();
  await db.schema.dropIndex("conversations_freelancer").execute();
  await db.schema.alterTable("conversations").dropColumn("merchant_id").execute();
  await db.schema.alterTable("conversations").dropColumn("freelancer_id").execute();
}
