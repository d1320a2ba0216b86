import { type Kysely } from "kysely";
import { alterChecksPostgres, alterChecksSqlite, type CheckChange } from "./alter-check";

// A ready-made service may be reported (docs/product.md, "Serviços prontos"): reports.target_type
// takes 'service' (the report's target_id is the service's id).

const TARGET_TYPE: CheckChange = {
  column: "target_type",
  from: "target_type in ('opportunity', 'profile', 'message', 'review', 'reply')",
  to: "target_type in ('opportunity', 'profile', 'message', 'review', 'reply', 'service')",
};
const NARROW: CheckChange = { ...TARGET_TYPE, from: TARGET_TYPE.to, to: TARGET_TYPE.from };

export async function up(db: Kysely<any>): Promise<void> {
  await alterChecksSqlite(db, "reports", [TARGET_TYPE]);
}

/** Back: only where no service was reported. */
export async function down(db: Kysely<any>): Promise<void> {
  await alterChecksSqlite(db, "reports", [NARROW]);
}

export const postgres = {
  async up(db: Kysely<any>): Promise<void> {
    await alterChecksPostgres(db, "reports", [TARGET_TYPE]);
  },
  async down(db: Kysely<any>): Promise<void> {
    await alterChecksPostgres(db, "reports", [NARROW]);
  },
};
