import { sql, type Kysely } from "kysely";

// Who is who (docs/product.md, "Identidade"; docs/payments.md, "Repasses"):
// - identities: the fiscal record of an account, a person (CPF, full legal name, birth date) or a
//   company (CNPJ, razão social, CPF of the responsible person); its verification state
//   (none → pending → verified | rejected), the photos sent (RG or CNH front and back, a selfie
//   holding it: private files, counted in the storage quota, deleted 90 days after a decision),
//   the decision and its reason (kept). `version` grows with every write: an operator's decision
//   names the version it saw, so a resend or a change in between makes it 409.
//   One document per active account: a partial unique index; a deleted account's document is
//   erased (null), so it no longer counts.
// - identity_conflicts: a document refused because another active account holds it, for the
//   operator.
// - payout_accounts.held_until: a changed payout key holds payouts for 24 hours.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("identities")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("document", "text")
    .addColumn("legal_name", "text", (c) => c.notNull())
    .addColumn("birth_date", "text")
    .addColumn("responsible_cpf", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("none"))
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("doc_type", "text")
    .addColumn("front_file", "text")
    .addColumn("back_file", "text")
    .addColumn("selfie_file", "text")
    .addColumn("files_bytes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("submitted_at", "text")
    .addColumn("decided_at", "text")
    .addColumn("decided_by", "text")
    .addColumn("reason", "text")
    .addColumn("files_deleted_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX identities_document ON identities (document) WHERE document IS NOT NULL`.execute(db);
  await db.schema.createIndex("identities_status").on("identities").columns(["status", "submitted_at"]).execute();

  await db.schema
    .createTable("identity_conflicts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("holder_user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("identity_conflicts_user").on("identity_conflicts").column("user_id").execute();

  await db.schema.alterTable("payout_accounts").addColumn("held_until", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("payout_accounts").dropColumn("held_until").execute();
  await db.schema.dropTable("identity_conflicts").execute();
  await db.schema.dropTable("identities").execute();
}
