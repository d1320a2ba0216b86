import { sql, type Kysely } from "kysely";

// Hourly contracts (docs/payments.md, "Contratos por hora"):
// - contracts.kind: 'fixed' (milestones, as before; every existing contract) or 'hourly'. No CHECK
//   listing the kinds: on SQLite a new kind would mean rebuilding the table; the code validates.
//   rate_cents (per hour) and weekly_cap_minutes frozen from the accepted proposal (null: fixed);
//   paused_from: the first week (a Monday) not to open (null: none).
// - applications/offers.weekly_cap_hours: an hourly proposal's weekly cap (its price_cents is the
//   rate per hour); null for a fixed proposal.
// - contract_weeks: one row per contract and week (Monday to Sunday, São Paulo), the rate and cap
//   frozen for the week; its money is a milestone (amount = rate × cap), funded by the same Pix
//   charges. One row per (contract, week_start): two servers opening a week make one.
// - time_entries: the freelancer's hours of a week (minutes), editable while the week is open.
async function create(db: Kysely<any>, money: "integer" | "bigint") {
  await db.schema
    .alterTable("contracts")
    .addColumn("kind", "text", (c) => c.notNull().defaultTo("fixed"))
    .execute();
  await db.schema.alterTable("contracts").addColumn("rate_cents", money).execute();
  await db.schema.alterTable("contracts").addColumn("weekly_cap_minutes", "integer").execute();
  await db.schema.alterTable("contracts").addColumn("paused_from", "text").execute();
  await db.schema.alterTable("applications").addColumn("weekly_cap_hours", "integer").execute();
  await db.schema.alterTable("offers").addColumn("weekly_cap_hours", "integer").execute();

  await db.schema
    .createTable("contract_weeks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("contract_id", "text", (c) => c.notNull().references("contracts.id").onDelete("cascade"))
    .addColumn("week_start", "text", (c) => c.notNull())
    .addColumn("rate_cents", money, (c) => c.notNull())
    .addColumn("cap_minutes", "integer", (c) => c.notNull())
    .addColumn("milestone_id", "text", (c) => c.notNull().unique().references("milestones.id").onDelete("cascade"))
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status IN ('awaiting_funding', 'open', 'submitted', 'approved', 'lapsed')`),
    )
    .addColumn("minutes_total", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("submitted_at", "text")
    .addColumn("submitted_by", "text")
    .addColumn("review_due_at", "text")
    .addColumn("approved_at", "text")
    .addColumn("approved_by", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("contract_weeks_contract_week", ["contract_id", "week_start"])
    .execute();
  await db.schema.createIndex("contract_weeks_status").on("contract_weeks").columns(["status", "week_start"]).execute();

  await db.schema
    .createTable("time_entries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("week_id", "text", (c) => c.notNull().references("contract_weeks.id").onDelete("cascade"))
    .addColumn("contract_id", "text", (c) => c.notNull().references("contracts.id").onDelete("cascade"))
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("minutes", "integer", (c) => c.notNull().check(sql`minutes > 0 AND minutes <= 1440`))
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("question", "text")
    .addColumn("answer", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("time_entries_week").on("time_entries").columns(["week_id", "day"]).execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await create(db, "integer");
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("time_entries").execute();
  await db.schema.dropTable("contract_weeks").execute();
  for (const column of ["kind", "rate_cents", "weekly_cap_minutes", "paused_from"]) {
    await db.schema.alterTable("contracts").dropColumn(column).execute();
  }
  await db.schema.alterTable("applications").dropColumn("weekly_cap_hours").execute();
  await db.schema.alterTable("offers").dropColumn("weekly_cap_hours").execute();
}

export const postgres = {
  async up(db: Kysely<unknown>): Promise<void> {
    await create(db, "bigint");
  },
  down,
};
