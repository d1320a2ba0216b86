import { sql, type Kysely } from "kysely";
import { alterChecksPostgres, alterChecksSqlite, type CheckChange } from "./alter-check";

// Pix Automático for monthly contracts (docs/payments.md, "Pix Automático";
// docs/decisions/066-monthly-contracts.md):
// - pix_recurrences: the merchant's authorisation of a contract's monthly debit at the provider
//   (its recurrence, idRec of the API Pix). At most one pending or active per contract (a
//   partial unique index: of two authorisations at once, one is stored).
// - pix_charges.recurrence_id: a month's charge made against the recurrence (a cobr of the API
//   Pix). At most one per month (a partial unique index on its milestone: two schedules at once
//   make one). pix_charges.provider takes 'pix_automatico'.

const PROVIDER: CheckChange = {
  column: "provider",
  from: "provider in ('manual', 'mercadopago')",
  to: "provider in ('manual', 'mercadopago', 'pix_automatico')",
};
const NARROW: CheckChange = { ...PROVIDER, from: PROVIDER.to, to: PROVIDER.from };

async function create(db: Kysely<any>, money: "integer" | "bigint") {
  await db.schema
    .createTable("pix_recurrences")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("contract_id", "text", (c) => c.notNull().references("contracts.id").onDelete("cascade"))
    .addColumn("merchant_id", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("provider_recurrence_id", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('pending', 'active', 'cancelled', 'rejected', 'expired')`),
    )
    .addColumn("amount_cents", money, (c) => c.notNull().check(sql`amount_cents > 0`))
    .addColumn("day", "integer", (c) => c.notNull())
    /** What the payer's bank reads to authorise it (the API Pix's "copia e cola"). */
    .addColumn("br_code", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX pix_recurrences_one_live ON pix_recurrences (contract_id) WHERE status IN ('pending', 'active')`.execute(
    db,
  );
  await db.schema.createIndex("pix_recurrences_merchant").on("pix_recurrences").column("merchant_id").execute();
  await db.schema
    .alterTable("pix_charges")
    .addColumn("recurrence_id", "text", (c) => c.references("pix_recurrences.id").onDelete("set null"))
    .execute();
  await sql`CREATE UNIQUE INDEX pix_charges_one_recurring ON pix_charges (milestone_id) WHERE recurrence_id IS NOT NULL`.execute(
    db,
  );
}

async function drop(db: Kysely<any>) {
  await sql`DROP INDEX pix_charges_one_recurring`.execute(db);
  await db.schema.alterTable("pix_charges").dropColumn("recurrence_id").execute();
  await db.schema.dropTable("pix_recurrences").execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await alterChecksSqlite(db, "pix_charges", [PROVIDER]);
  await create(db, "integer");
}

/** Back: only where no charge was made by Pix Automático. */
export async function down(db: Kysely<any>): Promise<void> {
  await drop(db);
  await alterChecksSqlite(db, "pix_charges", [NARROW]);
}

export const postgres = {
  async up(db: Kysely<any>): Promise<void> {
    await alterChecksPostgres(db, "pix_charges", [PROVIDER]);
    await create(db, "bigint");
  },
  async down(db: Kysely<any>): Promise<void> {
    await drop(db);
    await alterChecksPostgres(db, "pix_charges", [NARROW]);
  },
};
