import { sql, type Kysely } from "kysely";

// Pagamento garantido (docs/payments.md). A contract is paid in milestones (1 to 20, in order,
// adding up to its price), each funded by a Pix charge and held until released to the freelancer
// (less the platform's fee, frozen on the contract at the hire) or refunded to the merchant.
// Every movement of money is one balanced transaction of the ledger: ledger_transactions and
// their ledger_entries (signed centavos summing to zero), never updated nor deleted (triggers
// refuse it), so that every balance is a sum of entries.
//
// Contracts made before this migration were agreed outside the platform: payments 'off', no fee,
// one milestone with the whole price, in the state of the contract's work.

const MILESTONE_OF_CONTRACT = sql`CASE status
  WHEN 'in_progress' THEN 'funded' WHEN 'delivered' THEN 'delivered'
  WHEN 'completed' THEN 'released' ELSE 'cancelled' END`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await createTables(db);
  await sql`CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE ON ledger_entries
    BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END`.execute(db);
  await sql`CREATE TRIGGER ledger_entries_no_delete BEFORE DELETE ON ledger_entries
    BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END`.execute(db);
  await sql`CREATE TRIGGER ledger_transactions_append_only BEFORE UPDATE ON ledger_transactions
    BEGIN SELECT RAISE(ABORT, 'ledger transactions are append-only'); END`.execute(db);
  await sql`CREATE TRIGGER ledger_transactions_no_delete BEFORE DELETE ON ledger_transactions
    BEGIN SELECT RAISE(ABORT, 'ledger transactions are append-only'); END`.execute(db);
}

export const postgres = {
  async up(db: Kysely<unknown>): Promise<void> {
    await createTables(db);
    await sql`CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the ledger is append-only'; END $$`.execute(db);
    for (const table of ["ledger_entries", "ledger_transactions"]) {
      await sql`CREATE TRIGGER ${sql.raw(`${table}_append_only`)} BEFORE UPDATE OR DELETE ON ${sql.table(table)}
        FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`.execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    await down(db);
    await sql`DROP FUNCTION IF EXISTS ledger_append_only()`.execute(db);
  },
};

async function createTables(db: Kysely<unknown>) {
  // How the contract is paid, frozen at the hire: PAYMENTS then, and PLATFORM_FEE_BPS then.
  await db.schema
    .alterTable("contracts")
    .addColumn("payments", "text", (c) =>
      c
        .notNull()
        .defaultTo("off")
        .check(sql`payments in ('off', 'escrow')`),
    )
    .execute();
  await db.schema
    .alterTable("contracts")
    .addColumn("fee_bps", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("contracts")
    .addColumn("milestones_count", "integer", (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable("milestones")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("contract_id", "text", (c) => c.notNull().references("contracts.id").onDelete("cascade"))
    // 1, 2, … in the order they are worked on; the current one is the first not settled.
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn("days", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .check(
          sql`status in ('proposed', 'awaiting_funding', 'funded', 'delivered', 'released', 'refunded', 'cancelled')`,
        ),
    )
    // An extra milestone proposed by one side, waiting for the other's answer.
    .addColumn("proposed_by", "text", (c) => c.check(sql`proposed_by in ('merchant', 'freelancer')`))
    .addColumn("deliveries_count", "integer", (c) => c.notNull().defaultTo(0))
    // Released: the freelancer's part and the fee; split by a dispute: the part released.
    .addColumn("released_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("fee_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("refunded_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("funded_at", "text")
    .addColumn("settled_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("milestones_contract_seq", ["contract_id", "seq"])
    .execute();

  // A Pix charge funding a milestone: a BR Code for the amount, with a txid of its own.
  await db.schema
    .createTable("pix_charges")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("milestone_id", "text", (c) => c.notNull().references("milestones.id").onDelete("cascade"))
    .addColumn("contract_id", "text", (c) => c.notNull().references("contracts.id").onDelete("cascade"))
    .addColumn("merchant_id", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull().check(sql`provider in ('manual', 'mercadopago')`))
    .addColumn("txid", "text", (c) => c.notNull().unique())
    .addColumn("provider_payment_id", "text", (c) => c.unique())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("br_code", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'paid', 'expired', 'superseded')`))
    .addColumn("e2e_id", "text", (c) => c.unique())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("paid_at", "text")
    .addColumn("confirmed_by", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("pix_charges_milestone")
    .on("pix_charges")
    .columns(["milestone_id", "created_at"])
    .execute();
  await db.schema.createIndex("pix_charges_status").on("pix_charges").columns(["status", "created_at"]).execute();

  // The freelancer's payout key and its holder.
  await db.schema
    .createTable("payout_accounts")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("key_type", "text", (c) => c.notNull().check(sql`key_type in ('cpf', 'cnpj', 'email', 'phone', 'evp')`))
    .addColumn("pix_key", "text", (c) => c.notNull())
    .addColumn("holder_name", "text", (c) => c.notNull())
    .addColumn("holder_document", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("payouts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn("key_type", "text", (c) => c.notNull())
    .addColumn("pix_key", "text", (c) => c.notNull())
    .addColumn("holder_name", "text", (c) => c.notNull())
    .addColumn("holder_document", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('requested', 'paid', 'failed')`))
    .addColumn("e2e_id", "text", (c) => c.unique())
    .addColumn("failure_reason", "text")
    .addColumn("decided_by", "text")
    .addColumn("decided_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("payouts_user").on("payouts").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("payouts_status").on("payouts").columns(["status", "created_at"]).execute();
  // One payout waiting at a time per freelancer: of two requests at once, the second is refused.
  await sql`CREATE UNIQUE INDEX payouts_one_requested ON payouts (user_id) WHERE status = 'requested'`.execute(db);

  // Money owed back to a merchant (a cancelled milestone, a dispute's rest, a late payment).
  await db.schema
    .createTable("refunds")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("contract_id", "text", (c) => c.notNull().references("contracts.id").onDelete("cascade"))
    .addColumn("milestone_id", "text", (c) => c.notNull().references("milestones.id").onDelete("cascade"))
    .addColumn("charge_id", "text")
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('due', 'paid')`))
    .addColumn("e2e_id", "text", (c) => c.unique())
    .addColumn("decided_by", "text")
    .addColumn("decided_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("refunds_user").on("refunds").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("refunds_status").on("refunds").columns(["status", "created_at"]).execute();

  await db.schema
    .createTable("ledger_transactions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("contract_id", "text")
    .addColumn("milestone_id", "text")
    .addColumn("charge_id", "text")
    .addColumn("payout_id", "text")
    .addColumn("refund_id", "text")
    // Whose statements it appears on.
    .addColumn("merchant_id", "text")
    .addColumn("freelancer_id", "text")
    .addColumn("memo", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("ledger_transactions_merchant")
    .on("ledger_transactions")
    .columns(["merchant_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("ledger_transactions_freelancer")
    .on("ledger_transactions")
    .columns(["freelancer_id", "created_at"])
    .execute();

  await db.schema
    .createTable("ledger_entries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("transaction_id", "text", (c) => c.notNull().references("ledger_transactions.id"))
    .addColumn("account", "text", (c) => c.notNull())
    // The user whose balance the account is (available, payout, refund, external), else null.
    .addColumn("user_id", "text")
    .addColumn("amount_cents", "integer", (c) => c.notNull().check(sql`amount_cents <> 0`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("ledger_entries_transaction").on("ledger_entries").column("transaction_id").execute();
  // A balance is one index range: the account's entries, amounts included.
  await db.schema
    .createIndex("ledger_entries_account")
    .on("ledger_entries")
    .columns(["account", "amount_cents"])
    .execute();
  await db.schema
    .createIndex("ledger_entries_user")
    .on("ledger_entries")
    .columns(["user_id", "account", "amount_cents"])
    .execute();

  // Webhook deliveries: each event processed once (by its id), refusals kept for the operator.
  await db.schema
    .createTable("payment_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("event_id", "text")
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("detail", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX payment_events_once ON payment_events (provider, event_id) WHERE outcome = 'processed'`.execute(
    db,
  );

  // One milestone for every contract made before: the whole price, in the state of its work.
  await sql`INSERT INTO milestones (id, contract_id, seq, title, amount_cents, days, status, deliveries_count,
      released_cents, fee_cents, refunded_cents, funded_at, settled_at, created_at, updated_at)
    SELECT 'm1-' || id, id, 1, 'Projeto completo', price_cents, delivery_days, ${MILESTONE_OF_CONTRACT},
      deliveries_count, CASE WHEN status = 'completed' THEN price_cents ELSE 0 END, 0, 0, NULL, ended_at, created_at, updated_at
    FROM contracts`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "payment_events",
    "ledger_entries",
    "ledger_transactions",
    "refunds",
    "payouts",
    "payout_accounts",
    "pix_charges",
    "milestones",
  ]) {
    await db.schema.dropTable(table).execute();
  }
  for (const column of ["milestones_count", "fee_bps", "payments"]) {
    await db.schema.alterTable("contracts").dropColumn(column).execute();
  }
}
