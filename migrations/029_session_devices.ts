import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";

// Sessions and devices (docs/product.md, "Contas e sessões"). Each session gets what its owner
// needs to recognise it in the settings' list: a public id (the list and DELETE /api/sessions/:id
// name a session by it; the row's key stays the token's hash, never shown), the user agent and
// the address it signed in from, when it was last used (refreshed at most every few minutes),
// and the SHA-256 of the single-use token of the sign-in notice's "end this session" link.
// account_devices remembers the user agents an account has signed in from (their SHA-256), so a
// notice goes out only for a device not seen before.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("public_id", "text").execute();
  await db.schema.alterTable("sessions").addColumn("user_agent", "text").execute();
  await db.schema.alterTable("sessions").addColumn("ip", "text").execute();
  await db.schema.alterTable("sessions").addColumn("last_used_at", "text").execute();
  await db.schema.alterTable("sessions").addColumn("end_token", "text").execute();
  // Sessions open before this get an id of their own and their creation as the last use.
  const rows = await sql<{ id: string }>`select id from sessions`.execute(db);
  for (const row of rows.rows) {
    await sql`update sessions set public_id = ${randomUUID()}, last_used_at = created_at where id = ${row.id}`.execute(
      db,
    );
  }
  await db.schema.createIndex("sessions_public_id").unique().on("sessions").column("public_id").execute();
  await db.schema.createIndex("sessions_end_token").unique().on("sessions").column("end_token").execute();

  await db.schema
    .createTable("account_devices")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("agent_hash", "text", (c) => c.notNull())
    .addColumn("first_seen_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("account_devices_pk", ["user_id", "agent_hash"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("account_devices").execute();
  await db.schema.dropIndex("sessions_end_token").execute();
  await db.schema.dropIndex("sessions_public_id").execute();
  for (const column of ["end_token", "last_used_at", "ip", "user_agent", "public_id"]) {
    await db.schema.alterTable("sessions").dropColumn(column).execute();
  }
}
