import { sql, type Kysely } from "kysely";

// Verified e-mail (docs/product.md, "Contas e sessões"): users.email_verified_at (null until the
// owner opens the link sent by e-mail; accounts made before this start unverified and verify
// through the banner's "reenviar e-mail"), the single-use links (only their SHA-256 stored, as
// for password resets), either confirming the address of the account (`verify`) or a new
// address that replaces it once confirmed (`change`). Account e-mails (the links, the notices)
// go through the outbox like every other e-mail: `payload` carries what they need (the link, the
// address when it is not the account's), and is cleared once the e-mail is sent.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("email_verified_at", "text").execute();

  await db.schema
    .createTable("email_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("purpose", "text", (c) => c.notNull().check(sql`purpose in ('verify', 'change')`))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("email_tokens_user").on("email_tokens").columns(["user_id", "purpose"]).execute();

  await db.schema.alterTable("outbox").addColumn("payload", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("outbox").dropColumn("payload").execute();
  await db.schema.dropTable("email_tokens").execute();
  await db.schema.alterTable("users").dropColumn("email_verified_at").execute();
}
