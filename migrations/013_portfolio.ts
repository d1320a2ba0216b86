import type { Kysely } from "kysely";

// A freelancer's portfolio: up to 20 pieces of work (the service keeps the count), each with an
// optional link and an optional image kept in the photo store (app/services/platform/uploads.server.ts).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("portfolio_items")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("link", "text")
    .addColumn("image_path", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("portfolio_items_user_created")
    .on("portfolio_items")
    .columns(["user_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("portfolio_items").execute();
}
