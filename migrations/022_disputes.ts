import type { Kysely } from "kysely";
import { sql } from "kysely";

// Disputes: either side of a contract in progress or delivered opens one (a reason and a
// statement); the contract is frozen (contracts.disputed_at: no move, no automatic completion)
// until an operator decides. Statements and their files are events of the contract's timeline
// (dispute_opened, dispute_statement, dispute_decided) with contract_files, so the record stays
// in one place. The other side has until respond_by (5 days) to answer; the schedule reminds it
// once (reminded_at). The decision is final: what it was, why, who and when.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("contracts").addColumn("disputed_at", "text").execute();
  await db.schema
    .createTable("disputes")
    .addColumn("id", "text", (c) => c.primaryKey())
    // One per contract: a decision ends it (or, with payments, settles its milestone).
    .addColumn("contract_id", "text", (c) => c.notNull().references("contracts.id").onDelete("cascade"))
    .addColumn("opened_by", "text", (c) => c.notNull().check(sql`opened_by in ('merchant', 'freelancer')`))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('open', 'decided')`))
    .addColumn("respond_by", "text", (c) => c.notNull())
    .addColumn("answered_at", "text")
    .addColumn("reminded_at", "text")
    .addColumn("decision", "text")
    .addColumn("decision_reason", "text")
    // The operator (no foreign key: the audit log names them for good).
    .addColumn("decided_by", "text")
    .addColumn("decided_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("disputes_contract").on("disputes").column("contract_id").unique().execute();
  await db.schema.createIndex("disputes_status_created").on("disputes").columns(["status", "created_at"]).execute();
  // The reminder's question: open disputes nobody answered yet, by deadline.
  await sql`CREATE INDEX disputes_unanswered ON disputes (respond_by) WHERE status = 'open' AND answered_at IS NULL AND reminded_at IS NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("disputes").execute();
  await db.schema.alterTable("contracts").dropColumn("disputed_at").execute();
}
