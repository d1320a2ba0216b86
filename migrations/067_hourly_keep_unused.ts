import type { Kysely } from "kysely";

// Keeping a week's unused money for the next week (docs/payments.md, "Contratos por hora"):
// - contracts.hourly_keep_unused: the merchant's choice (1) to keep what an approved week did not
//   use for the next week waiting for its money, instead of the refund (0, the default);
// - milestones.carried_in_cents: what a week waiting for its money already holds, kept from an
//   earlier week (the Pix is for the rest); milestones.carried_out_cents: what a settled week
//   passed on to the next one (released + refunded + carried out = its amount);
// - contract_weeks.carried_from: the Monday of the week the kept money came from (null: none).
async function add(db: Kysely<any>, money: "integer" | "bigint") {
  await db.schema
    .alterTable("contracts")
    .addColumn("hourly_keep_unused", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("milestones")
    .addColumn("carried_in_cents", money, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("milestones")
    .addColumn("carried_out_cents", money, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("contract_weeks").addColumn("carried_from", "text").execute();
}

async function drop(db: Kysely<any>) {
  await db.schema.alterTable("contract_weeks").dropColumn("carried_from").execute();
  await db.schema.alterTable("milestones").dropColumn("carried_out_cents").execute();
  await db.schema.alterTable("milestones").dropColumn("carried_in_cents").execute();
  await db.schema.alterTable("contracts").dropColumn("hourly_keep_unused").execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await add(db, "integer");
}

export async function down(db: Kysely<any>): Promise<void> {
  await drop(db);
}

export const postgres = {
  async up(db: Kysely<any>): Promise<void> {
    await add(db, "bigint");
  },
  down: drop,
};
