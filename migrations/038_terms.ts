import { type Kysely } from "kysely";

// Terms of use and privacy policy (docs/product.md, "Termos de uso e privacidade"): the version
// each account accepted last (users.terms_version, null for accounts made before this, which are
// asked on their next visit), and every acceptance kept as a record (who, which version, when,
// from which address) that nothing in the app updates.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("terms_version", "text").execute();
  await db.schema
    .createTable("terms_acceptances")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("version", "text", (c) => c.notNull())
    .addColumn("ip", "text")
    .addColumn("accepted_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("terms_acceptances_user").on("terms_acceptances").columns(["user_id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("terms_acceptances").execute();
  await db.schema.alterTable("users").dropColumn("terms_version").execute();
}
