import { type Kysely } from "kysely";
import { alterChecksPostgres, alterChecksSqlite, type CheckChange } from "./alter-check";

// The merchant's questions on a submitted week's entries (docs/payments.md, "Contratos por hora"):
// - contract_weeks.status takes 'questioned': a week with entries waiting for the freelancer's
//   answer or amendment; the schedule does not approve it.
// - time_entries.answered_at: when the entry's question (time_entries.question, made with 055) was
//   settled, by an answer (time_entries.answer) or by an amendment of the entry (answer left null).
//   An entry's question is open while question is set and answered_at is null.

const WEEK_STATUS: CheckChange = {
  column: "status",
  from: "status IN ('awaiting_funding', 'open', 'submitted', 'approved', 'lapsed')",
  to: "status IN ('awaiting_funding', 'open', 'submitted', 'questioned', 'approved', 'lapsed')",
};
const NARROW: CheckChange = { ...WEEK_STATUS, from: WEEK_STATUS.to, to: WEEK_STATUS.from };

async function answeredAt(db: Kysely<any>) {
  await db.schema.alterTable("time_entries").addColumn("answered_at", "text").execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await alterChecksSqlite(db, "contract_weeks", [WEEK_STATUS]);
  await answeredAt(db);
}

/** Back: only where no week is questioned. */
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("time_entries").dropColumn("answered_at").execute();
  await alterChecksSqlite(db, "contract_weeks", [NARROW]);
}

export const postgres = {
  async up(db: Kysely<any>): Promise<void> {
    await alterChecksPostgres(db, "contract_weeks", [WEEK_STATUS]);
    await answeredAt(db);
  },
  async down(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable("time_entries").dropColumn("answered_at").execute();
    await alterChecksPostgres(db, "contract_weeks", [NARROW]);
  },
};
