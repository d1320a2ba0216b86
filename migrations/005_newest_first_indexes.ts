import type { Kysely } from "kysely";

// Newest-first lists order opportunities by id (creation order, and the full-text index's rowid).
// Every SQLite index ends with the rowid, so an index on the filtered columns alone hands rows
// over already in that order: the browse page reads 20 index entries instead of sorting every
// open opportunity. They replace the created_at indexes that served the old order.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("opportunities_status_created").execute();
  await db.schema.dropIndex("opportunities_category_status_created").execute();
  await db.schema.dropIndex("opportunities_merchant_created").execute();
  await db.schema.createIndex("opportunities_status").on("opportunities").column("status").execute();
  await db.schema
    .createIndex("opportunities_category_status")
    .on("opportunities")
    .columns(["category", "status"])
    .execute();
  await db.schema.createIndex("opportunities_merchant").on("opportunities").column("merchant_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("opportunities_merchant").execute();
  await db.schema.dropIndex("opportunities_category_status").execute();
  await db.schema.dropIndex("opportunities_status").execute();
  await db.schema
    .createIndex("opportunities_status_created")
    .on("opportunities")
    .columns(["status", "created_at"])
    .execute();
  await db.schema
    .createIndex("opportunities_merchant_created")
    .on("opportunities")
    .columns(["merchant_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("opportunities_category_status_created")
    .on("opportunities")
    .columns(["category", "status", "created_at"])
    .execute();
}
