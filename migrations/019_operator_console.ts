import { sql, type Kysely } from "kysely";
import { alterChecksPostgres, alterChecksSqlite, type CheckChange } from "./alter-check";

// The operator: a third kind of account (never chosen at registration; made by
// `npm run operator:create`), who runs the marketplace from /admin. Everything an operator does
// is written to audit_log, in the transaction of the action: who, when, what, on what, why, and
// the record before and after. The log is append-only: triggers refuse UPDATE and DELETE (and,
// on PostgreSQL, TRUNCATE) of its rows, whoever asks. It keeps no foreign key to the operator,
// whose name and e-mail it copies, so it outlives a removed operator account.

const ACCOUNT_TYPE: CheckChange = {
  column: "account_type",
  from: "account_type in ('merchant', 'freelancer')",
  to: "account_type in ('merchant', 'freelancer', 'operator')",
};

async function auditLog(db: Kysely<any>) {
  await db.schema
    .createTable("audit_log")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("created_at", "text", (c) => c.notNull())
    // The operator (null: the command line, which runs as whoever runs it).
    .addColumn("actor_id", "text")
    .addColumn("actor_name", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("target_type", "text", (c) => c.notNull())
    .addColumn("target_id", "text", (c) => c.notNull())
    .addColumn("reason", "text")
    // JSON of the fields the action changed, as they were and as they became.
    .addColumn("before", "text")
    .addColumn("after", "text")
    .execute();
  await db.schema.createIndex("audit_log_created").on("audit_log").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("audit_log_actor").on("audit_log").columns(["actor_id", "created_at"]).execute();
  await db.schema
    .createIndex("audit_log_target")
    .on("audit_log")
    .columns(["target_type", "target_id", "created_at"])
    .execute();
  await db.schema.createIndex("audit_log_action").on("audit_log").columns(["action", "created_at"]).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await alterChecksSqlite(db, "users", [ACCOUNT_TYPE]);
  await auditLog(db);
  for (const op of ["UPDATE", "DELETE"]) {
    await sql
      .raw(
        `CREATE TRIGGER audit_log_no_${op.toLowerCase()} BEFORE ${op} ON audit_log
         BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`,
      )
      .execute(db);
  }
}

/** Back to two kinds of account: only where no operator account is left. */
const NARROW: CheckChange = { ...ACCOUNT_TYPE, from: ACCOUNT_TYPE.to, to: ACCOUNT_TYPE.from };

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("audit_log").execute();
  await alterChecksSqlite(db, "users", [NARROW]);
}

export const postgres = {
  async up(db: Kysely<any>): Promise<void> {
    await alterChecksPostgres(db, "users", [ACCOUNT_TYPE]);
    await auditLog(db);
    await sql`CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$`.execute(db);
    await sql`CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`.execute(db);
    await sql`CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
      FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`.execute(db);
  },
  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable("audit_log").execute();
    await sql`DROP FUNCTION audit_log_append_only()`.execute(db);
    await alterChecksPostgres(db, "users", [NARROW]);
  },
};
