import type { Kysely } from "kysely";

// Monthly contracts (docs/payments.md, "Contratos mensais"):
// - contracts.kind gains 'monthly' (no CHECK lists the kinds: the code validates, see 055).
//   monthly_day: the day of the month (1–28) each month starts on; month_includes: what a month
//   includes, from the accepted proposal; the month's amount is the contract's price_cents.
//   paused_from (055) holds, for a monthly contract, the first month ('YYYY-MM') not to open.
// - applications/offers.month_includes: a proposal (or counter-offer) with it is monthly (its
//   price_cents the monthly amount); null keeps it fixed or hourly, as before.
// - contract_months: one row per contract and month; its money and its state are its milestone's
//   (no second status to keep in step). Unique (contract, month): two servers opening a month
//   make one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("contracts").addColumn("monthly_day", "integer").execute();
  await db.schema.alterTable("contracts").addColumn("month_includes", "text").execute();
  await db.schema.alterTable("applications").addColumn("month_includes", "text").execute();
  await db.schema.alterTable("offers").addColumn("month_includes", "text").execute();

  await db.schema
    .createTable("contract_months")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("contract_id", "text", (c) => c.notNull().references("contracts.id").onDelete("cascade"))
    .addColumn("month", "text", (c) => c.notNull())
    .addColumn("starts_on", "text", (c) => c.notNull())
    .addColumn("milestone_id", "text", (c) => c.notNull().unique().references("milestones.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("contract_months_contract_month", ["contract_id", "month"])
    .execute();
  await db.schema.createIndex("contract_months_starts_on").on("contract_months").column("starts_on").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("contract_months").execute();
  for (const column of ["monthly_day", "month_includes"]) {
    await db.schema.alterTable("contracts").dropColumn(column).execute();
  }
  await db.schema.alterTable("applications").dropColumn("month_includes").execute();
  await db.schema.alterTable("offers").dropColumn("month_includes").execute();
}
