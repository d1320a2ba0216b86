import type { Kysely } from "kysely";

// Changing a monthly contract's amount (docs/payments.md, "Contratos mensais", "Mudar o valor do
// mês"): one side proposes a new amount, the other accepts or refuses it. While it waits:
// contracts.amount_change_cents (the amount proposed) and contracts.amount_change_by (the side
// that proposed it); both null otherwise. Accepting it makes it the contract's price_cents, which
// the months opened from then on take (a month already opened keeps its amount).
async function add(db: Kysely<any>, money: "integer" | "bigint") {
  await db.schema.alterTable("contracts").addColumn("amount_change_cents", money).execute();
  await db.schema.alterTable("contracts").addColumn("amount_change_by", "text").execute();
}

async function drop(db: Kysely<any>) {
  await db.schema.alterTable("contracts").dropColumn("amount_change_by").execute();
  await db.schema.alterTable("contracts").dropColumn("amount_change_cents").execute();
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
