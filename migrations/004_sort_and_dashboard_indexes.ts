import { sql, type Kysely } from "kysely";

// "Soonest deadline first, none last" orders by (deadline IS NULL, deadline). An index on that
// very expression lets the browse page read open opportunities already in order, instead of
// sorting every open one for each page. The merchant's dashboard counts their open
// opportunities by (merchant_id, status); without that index SQLite walks every open one.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("opportunities_status_deadline").execute();
  await sql`CREATE INDEX opportunities_status_deadline_sort ON opportunities (status, (deadline IS NULL), deadline)`.execute(
    db,
  );
  await db.schema
    .createIndex("opportunities_merchant_status")
    .on("opportunities")
    .columns(["merchant_id", "status"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("opportunities_merchant_status").execute();
  await db.schema.dropIndex("opportunities_status_deadline_sort").execute();
  await db.schema
    .createIndex("opportunities_status_deadline")
    .on("opportunities")
    .columns(["status", "deadline"])
    .execute();
}
