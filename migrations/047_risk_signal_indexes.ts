import type { Kysely } from "kysely";

// Indexes for an account's risk signals on the operator's page (docs/product.md, "Sinais de
// risco"): the conflicts where it holds the document, the payout keys with the same holder
// document, and the refunds of its contracts.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("identity_conflicts_holder").on("identity_conflicts").column("holder_user_id").execute();
  await db.schema
    .createIndex("payout_accounts_holder_document")
    .on("payout_accounts")
    .column("holder_document")
    .execute();
  await db.schema.createIndex("refunds_contract").on("refunds").column("contract_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("refunds_contract").execute();
  await db.schema.dropIndex("payout_accounts_holder_document").execute();
  await db.schema.dropIndex("identity_conflicts_holder").execute();
}
