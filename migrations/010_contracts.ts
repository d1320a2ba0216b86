import { sql, type Kysely, type RawBuilder } from "kysely";

// Contracts: what an accepted application becomes (one each, keyed by the application's id).
// Its timeline (deliveries, change requests, cancellation requests…) is contract_events, numbered
// 1, 2, … per contract; the files of a delivery are contract_files, whose bytes live in the
// store of the profile photos (app/services/platform/uploads.server.ts). Accepted applications made
// before this migration get their contract, in progress, due delivery_days after the hire.

// due_at = the hire plus delivery_days, as an ISO 8601 UTC text like every timestamp.
const SQLITE_DUE = sql`strftime('%Y-%m-%dT%H:%M:%fZ', a.updated_at, '+' || a.delivery_days || ' days')`;
const POSTGRES_DUE = sql`to_char((a.updated_at::timestamptz + a.delivery_days * interval '1 day') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export const up = (db: Kysely<unknown>) => createContracts(db, SQLITE_DUE);

export const postgres = { up: (db: Kysely<unknown>) => createContracts(db, POSTGRES_DUE), down };

async function createContracts(db: Kysely<unknown>, dueAt: RawBuilder<unknown>): Promise<void> {
  await db.schema
    .createTable("contracts")
    .addColumn("id", "text", (c) => c.primaryKey().references("applications.id").onDelete("cascade"))
    .addColumn("opportunity_id", "integer", (c) => c.notNull().references("opportunities.id").onDelete("cascade"))
    .addColumn("merchant_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("freelancer_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("price_cents", "integer", (c) => c.notNull())
    .addColumn("delivery_days", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('in_progress', 'delivered', 'completed', 'cancelled')`),
    )
    .addColumn("due_at", "text", (c) => c.notNull())
    .addColumn("overdue_at", "text")
    .addColumn("delivered_at", "text")
    .addColumn("review_due_at", "text")
    .addColumn("reminded_at", "text")
    .addColumn("deliveries_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("events_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("cancel_requested_by", "text", (c) => c.check(sql`cancel_requested_by in ('merchant', 'freelancer')`))
    .addColumn("cancel_request_reason", "text")
    .addColumn("ended_at", "text")
    .addColumn("ended_by", "text", (c) => c.check(sql`ended_by in ('merchant', 'freelancer', 'system')`))
    .addColumn("end_reason", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("contracts_merchant_updated")
    .on("contracts")
    .columns(["merchant_id", "updated_at"])
    .execute();
  await db.schema
    .createIndex("contracts_freelancer_updated")
    .on("contracts")
    .columns(["freelancer_id", "updated_at"])
    .execute();
  // The schedule's two questions: deliveries waiting for review, work past its due date.
  await db.schema.createIndex("contracts_status_review").on("contracts").columns(["status", "review_due_at"]).execute();
  await db.schema.createIndex("contracts_status_due").on("contracts").columns(["status", "due_at"]).execute();

  await db.schema
    .createTable("contract_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("contract_id", "text", (c) => c.notNull().references("contracts.id").onDelete("cascade"))
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("author", "text", (c) => c.notNull().check(sql`author in ('merchant', 'freelancer', 'system')`))
    .addColumn("message", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("contract_events_contract_seq", ["contract_id", "seq"])
    .execute();

  await db.schema
    .createTable("contract_files")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("contract_id", "text", (c) => c.notNull().references("contracts.id").onDelete("cascade"))
    .addColumn("event_id", "text", (c) => c.notNull().references("contract_events.id").onDelete("cascade"))
    .addColumn("stored_name", "text", (c) => c.notNull().unique())
    .addColumn("original_name", "text", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("size_bytes", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("contract_files_event").on("contract_files").column("event_id").execute();

  // Contracts for the hires made before contracts existed, each with its 'created' event.
  await sql`INSERT INTO contracts (id, opportunity_id, merchant_id, freelancer_id, price_cents, delivery_days,
      status, due_at, deliveries_count, events_count, created_at, updated_at)
    SELECT a.id, a.opportunity_id, o.merchant_id, a.freelancer_id, a.price_cents, a.delivery_days,
      'in_progress', ${dueAt}, 0, 1, a.updated_at, a.updated_at
    FROM applications a JOIN opportunities o ON o.id = a.opportunity_id
    WHERE a.status = 'accepted'`.execute(db);
  await sql`INSERT INTO contract_events (id, contract_id, seq, kind, author, message, created_at)
    SELECT 'created-' || id, id, 1, 'created', 'system', NULL, created_at FROM contracts`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["contract_files", "contract_events", "contracts"]) await db.schema.dropTable(table).execute();
}
