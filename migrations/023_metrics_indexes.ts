import type { Kysely } from "kysely";

// The operator's marketplace metrics (app/services/operator/metrics.server.ts) count what
// happened in the last 30 or 90 days: these indexes let each count read only that period's rows
// instead of whole tables.

const INDEXES = [
  ["opportunities_created", "opportunities", ["created_at"]],
  ["applications_created", "applications", ["created_at"]],
  ["contracts_created", "contracts", ["created_at"]],
  ["contracts_status_ended", "contracts", ["status", "ended_at"]],
  ["users_created", "users", ["created_at"]],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, columns] of INDEXES) {
    await db.schema
      .createIndex(name)
      .on(table)
      .columns([...columns])
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute();
}
