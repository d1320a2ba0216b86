import type { Kysely } from "kysely";

// Two details of an account the user sees (docs/product.md, "Contas e sessões" and "Perfis"):
// - sessions.place: where a session signed in from, only when the operator's trusted proxy says
//   so (PLACE_HEADER with TRUST_PROXY); null when nothing is known. No lookup of the address.
// - users.company_name, users.company_cnpj: a merchant's company as they declare it on their
//   profile (the CNPJ's check digits checked, 14 digits kept); the name is public, the CNPJ is
//   shown only on the receipts of the merchant's own contracts. Not a verified fiscal identity.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("place", "text").execute();
  await db.schema.alterTable("users").addColumn("company_name", "text").execute();
  await db.schema.alterTable("users").addColumn("company_cnpj", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("company_cnpj").execute();
  await db.schema.alterTable("users").dropColumn("company_name").execute();
  await db.schema.alterTable("sessions").dropColumn("place").execute();
}
