import type { Kysely } from "kysely";

// A ready-made service's images (docs/product.md, "Serviços prontos"): at most six, in the order
// their owner sets (position 0 is the catalogue card's picture). The files are kept as portfolio
// images are (uploads.server.ts, the photos' store), under a generated name; the rows go with
// their service.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("service_images")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("service_id", "text", (c) => c.notNull().references("services.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("image_path", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // The gallery in its order, and the card's first image read by (service_id, position).
  await db.schema
    .createIndex("service_images_service")
    .on("service_images")
    .columns(["service_id", "position"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("service_images").execute();
}
