import { sql, type Kysely } from "kysely";

// A merchant invites a freelancer to one of their open opportunities, once per pair. Whether
// the freelancer has applied since, or the opportunity is no longer open (the invitation is
// then void), is read from the application and the opportunity, not stored twice.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("invitations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("opportunity_id", "integer", (c) => c.notNull().references("opportunities.id").onDelete("cascade"))
    .addColumn("freelancer_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("merchant_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'declined')`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("invitations_one_per_freelancer", ["opportunity_id", "freelancer_id"])
    .execute();
  await db.schema
    .createIndex("invitations_freelancer_created")
    .on("invitations")
    .columns(["freelancer_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("invitations_merchant_created")
    .on("invitations")
    .columns(["merchant_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("invitations").execute();
}
