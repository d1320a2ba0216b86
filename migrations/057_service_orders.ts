import { sql, type Kysely } from "kysely";

// Buying a ready-made service (docs/product.md, "Contratar um serviço"): an order is a hire. It
// makes, in one transaction, a private opportunity (filled at birth), an accepted application and
// a fixed contract, all under one id, and this row beside them with what the merchant confirmed.
// - service_orders.id = the contract's id = the application's id. The package and the extras are
//   copied (name, includes, price, days, revisions; extras' title, price, days): a later edit of
//   the service never changes an order. answers: JSON, null until the buyer answers.
//   revisions_used counts the change requests against revisions_allowed (the package's), taken in
//   the request's own conditional UPDATE.
// - opportunities.service_id marks an order's opportunity: it never shows in a list, search,
//   sitemap, alert or queue of opportunities. No foreign key: the mark must outlive the service
//   (an account's deletion removes its services), or the opportunity would surface.
async function create(db: Kysely<any>, money: "integer" | "bigint") {
  await db.schema.alterTable("opportunities").addColumn("service_id", "text").execute();
  await db.schema
    .createTable("service_orders")
    .addColumn("id", "text", (c) => c.primaryKey().references("contracts.id").onDelete("cascade"))
    .addColumn("service_id", "text", (c) => c.notNull())
    .addColumn("merchant_id", "text", (c) => c.notNull())
    .addColumn("freelancer_id", "text", (c) => c.notNull())
    .addColumn("package_index", "integer", (c) => c.notNull())
    .addColumn("snapshot", "text", (c) => c.notNull())
    .addColumn("total_cents", money, (c) => c.notNull().check(sql`total_cents > 0`))
    .addColumn("delivery_days", "integer", (c) => c.notNull())
    .addColumn("answers", "text")
    .addColumn("answered_at", "text")
    .addColumn("revisions_allowed", "integer", (c) => c.notNull())
    .addColumn("revisions_used", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`revisions_used >= 0 AND revisions_used <= revisions_allowed`),
    )
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // A service's orders, newest first (its page's reviews).
  await db.schema
    .createIndex("service_orders_service")
    .on("service_orders")
    .columns(["service_id", "created_at"])
    .execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  await create(db, "integer");
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("service_orders").execute();
  await db.schema.alterTable("opportunities").dropColumn("service_id").execute();
}

export const postgres = {
  async up(db: Kysely<any>): Promise<void> {
    await create(db, "bigint");
  },
  down,
};
