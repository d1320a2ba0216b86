import { sql, type Kysely } from "kysely";

// E-mail that stays deliverable (docs/operations.md, "E-mails devolvidos"): the addresses that
// bounced for good or complained, which get no more e-mail until the operator lifts them or the
// person changes to another address; the provider notifications already taken (a retried or
// replayed one changes nothing); and, on the account, since when its address is suppressed (the
// notice above its pages, with no query of its own).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("email_suppressions")
    .addColumn("email", "text", (c) => c.primaryKey())
    .addColumn("reason", "text", (c) => c.notNull().check(sql`reason in ('bounce', 'complaint')`))
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("detail", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("email_webhook_receipts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("received_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("email_webhook_receipts_received")
    .on("email_webhook_receipts")
    .column("received_at")
    .execute();
  await db.schema.alterTable("users").addColumn("email_undeliverable_at", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("email_undeliverable_at").execute();
  await db.schema.dropTable("email_webhook_receipts").execute();
  await db.schema.dropTable("email_suppressions").execute();
}
