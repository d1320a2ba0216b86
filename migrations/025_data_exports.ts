import { sql, type Kysely } from "kysely";

// Copies of a user's data (docs/product.md, "Seus dados"): one row per copy asked for. It waits
// ('pending') until a server's export job claims it ('building', under its claim id until
// locked_until: a job that dies mid-build leaves it to be claimed again once the lease ends),
// then holds the ZIP's name in the file store ('ready', until expires_at: 7 days), and after
// that only the fact that it existed ('expired', the file deleted by the housekeeping). A copy
// that failed too often is 'failed'. At most one copy per account waits or is being built at a
// time: the partial unique index is the guard two asks at once meet.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("data_exports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("claim", "text")
    .addColumn("locked_until", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("file_name", "text")
    .addColumn("size_bytes", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("ready_at", "text")
    .addColumn("expires_at", "text")
    .execute();
  await db.schema.createIndex("data_exports_user").on("data_exports").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("data_exports_status").on("data_exports").columns(["status", "created_at"]).execute();
  await sql`CREATE UNIQUE INDEX data_exports_one_waiting ON data_exports (user_id) WHERE status IN ('pending', 'building')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("data_exports").execute();
}
