import { sql, type Kysely } from "kysely";

// The catalogue's other orders read through indexes (docs/performance.md, "Serviços"): by price
// (cheapest first) and by rating (best average first, then the most rated, ties newest first),
// both among the published services. Without them /servicos sorted every published service on
// each request (~0.5 s at 100 000). The rating's expression is the one the list orders by
// (RATING_AVERAGE in app/services/catalog/services.server.ts), so both engines use the index.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("services_published_price")
    .on("services")
    .columns(["status", "price_from_cents", "seq"])
    .execute();
  await sql`CREATE INDEX services_published_rating ON services (status, (CASE WHEN rating_count = 0 THEN 0 ELSE rating_sum * 1.0 / rating_count END), rating_count, seq)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("services_published_rating").execute();
  await db.schema.dropIndex("services_published_price").execute();
}
