import { type Kysely } from "kysely";

// Contacts before funding (docs/product.md, "Contatos antes do pagamento"):
// - <text>.masked_*: what the other side reads when the text had a phone, an e-mail, a WhatsApp or
//   Telegram link, a Pix key or a request to pay outside Freela, sent before a contract between
//   the two was funded (null: nothing masked, the other side reads the original). The author always
//   reads the original.
// - contact_flags: one row per text sent with something masked (its author, what it was, when):
//   three in 24 hours open a report of the account (reports, reason off_platform).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("messages").addColumn("masked_body", "text").execute();
  await db.schema.alterTable("applications").addColumn("masked_cover_letter", "text").execute();
  await db.schema.alterTable("offers").addColumn("masked_message", "text").execute();
  await db.schema.alterTable("invitations").addColumn("masked_message", "text").execute();
  await db.schema
    .createTable("contact_flags")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("source_id", "text", (c) => c.notNull())
    .addColumn("kinds", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("contact_flags_user").on("contact_flags").columns(["user_id", "created_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("contact_flags").execute();
  await db.schema.alterTable("invitations").dropColumn("masked_message").execute();
  await db.schema.alterTable("offers").dropColumn("masked_message").execute();
  await db.schema.alterTable("applications").dropColumn("masked_cover_letter").execute();
  await db.schema.alterTable("messages").dropColumn("masked_body").execute();
}
