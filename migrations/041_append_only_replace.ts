import { sql, type Kysely } from "kysely";

// The append-only tables (the operators' audit log, the ledger's transactions and entries) refuse
// UPDATE and DELETE by triggers (migrations 019 and 020). On SQLite, `INSERT OR REPLACE` (and
// `REPLACE INTO`) on an existing id deletes the row without firing DELETE triggers and writes
// another in its place: these triggers refuse an insert whose id is already there, as PostgreSQL
// does by itself (it has no REPLACE; its upsert fires the UPDATE triggers).

const TABLES = ["audit_log", "ledger_transactions", "ledger_entries"] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await sql
      .raw(
        `CREATE TRIGGER ${table}_no_replace BEFORE INSERT ON ${table}
         WHEN EXISTS (SELECT 1 FROM ${table} WHERE id = NEW.id)
         BEGIN SELECT RAISE(ABORT, '${table} is append-only'); END`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) await sql.raw(`DROP TRIGGER IF EXISTS ${table}_no_replace`).execute(db);
}

export const postgres = {
  async up() {},
  async down() {},
};
