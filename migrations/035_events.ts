import type { Kysely } from "kysely";

// Live updates (docs/architecture.md, "Live updates"): one row per event a user's open pages
// should hear of (a message, a notification, a contract's move), numbered in commit order, so a
// stream that reconnects with the last number it saw reads exactly what it missed. Rows hold a
// kind and the id of the record concerned, never its text; the housekeeping deletes them after
// an hour.

const table = (engine: "sqlite" | "postgres") => async (db: Kysely<unknown>) => {
  await db.schema
    .createTable("events")
    .addColumn("id", engine === "postgres" ? "bigserial" : "integer", (c) =>
      engine === "postgres" ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("ref", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("events_user").on("events").columns(["user_id", "id"]).execute();
  await db.schema.createIndex("events_created").on("events").column("created_at").execute();
};

export const up = table("sqlite");

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("events").execute();
}

export const postgres = { up: table("postgres"), down };
