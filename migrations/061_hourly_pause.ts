import type { Kysely } from "kysely";

// Pausing an hourly contract (docs/payments.md, "Contratos por hora"):
// - contracts.hourly_paused_from: the first week (a Monday, 'YYYY-MM-DD') that does not open
//   while the contract is paused; null while it runs. Apart from paused_from (055), which for an
//   hourly contract means it ended from that week: a paused contract goes on once resumed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("contracts").addColumn("hourly_paused_from", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("contracts").dropColumn("hourly_paused_from").execute();
}
