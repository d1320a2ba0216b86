import { sql, type Kysely } from "kysely";

// Money and disputes (docs/payments.md):
// - PostgreSQL: every money column becomes bigint (int8), so amounts past 2³¹−1 centavos
//   (R$ 21,4 milhões) fit and products such as released_cents * fee_bps do not overflow.
//   SQLite's integers are 64-bit already.
// - contract_events.amount_cents: the value a history line names, kept as it was at its moment
//   (the hire's price, a proposed or added milestone, a payment, a release, a decision's refund).
// - disputes: one *open* dispute per contract at a time (a partial unique index) instead of one
//   ever, so money held in a later milestone can be disputed once an earlier dispute is decided;
//   milestone_id names the milestone the dispute is about (the one being worked on).

/** The money columns of the schema before this migration: table → columns. */
export const MONEY_COLUMNS: Record<string, string[]> = {
  opportunities: ["budget_min_cents", "budget_max_cents"],
  applications: ["price_cents"],
  offers: ["price_cents"],
  contracts: ["price_cents"],
  milestones: ["amount_cents", "released_cents", "fee_cents", "refunded_cents"],
  pix_charges: ["amount_cents"],
  payouts: ["amount_cents"],
  refunds: ["amount_cents"],
  ledger_entries: ["amount_cents"],
};

async function common(db: Kysely<any>, money: "integer" | "bigint") {
  await db.schema.alterTable("contract_events").addColumn("amount_cents", money).execute();
  // The hire's price, for the history lines written before this: the accepted terms.
  await sql`UPDATE contract_events SET amount_cents = coalesce(
      (SELECT a.price_cents FROM applications a WHERE a.id = contract_events.contract_id),
      (SELECT c.price_cents FROM contracts c WHERE c.id = contract_events.contract_id))
    WHERE kind = 'created'`.execute(db);
  await db.schema.alterTable("disputes").addColumn("milestone_id", "text").execute();
  await db.schema.dropIndex("disputes_contract").execute();
  await db.schema.createIndex("disputes_contract").on("disputes").columns(["contract_id", "created_at"]).execute();
  await sql`CREATE UNIQUE INDEX disputes_one_open ON disputes (contract_id) WHERE status = 'open'`.execute(db);
}

async function undo(db: Kysely<any>) {
  await db.schema.dropIndex("disputes_one_open").execute();
  await db.schema.dropIndex("disputes_contract").execute();
  await db.schema.createIndex("disputes_contract").on("disputes").column("contract_id").unique().execute();
  await db.schema.alterTable("disputes").dropColumn("milestone_id").execute();
  await db.schema.alterTable("contract_events").dropColumn("amount_cents").execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await common(db, "integer");
}

export async function down(db: Kysely<any>): Promise<void> {
  await undo(db);
}

async function retype(db: Kysely<any>, type: "bigint" | "integer") {
  for (const [table, columns] of Object.entries(MONEY_COLUMNS)) {
    await sql
      .raw(`ALTER TABLE ${table} ${columns.map((c) => `ALTER COLUMN ${c} TYPE ${type}`).join(", ")}`)
      .execute(db);
  }
}

export const postgres = {
  async up(db: Kysely<any>): Promise<void> {
    await retype(db, "bigint");
    await common(db, "bigint");
  },
  async down(db: Kysely<any>): Promise<void> {
    await undo(db);
    await retype(db, "integer");
  },
};
