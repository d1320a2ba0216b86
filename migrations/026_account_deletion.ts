import type { Kysely } from "kysely";

// Account deletion (docs/product.md, "Exclusão da conta"): the row of a deleted account stays,
// anonymised, under its id (contracts, reviews' ratings, ledger lines and terms acceptances keep
// pointing at it); users.deleted_at marks it, so sign-in, sessions, the directory, public pages,
// search and e-mails skip it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("deleted_at", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("deleted_at").execute();
}
