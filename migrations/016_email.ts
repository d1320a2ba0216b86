import { sql, type Kysely } from "kysely";

// E-mail notifications (README, "E-mail"): the language each user wants them in (users.locale,
// null: Portuguese), the kinds each user turned off (email_opt_outs, one row per kind; every
// kind is on by default), and the outbox the server processes drain through SMTP. A row of the
// outbox is written in the transaction of the event it tells about; the drain claims it with a
// conditional UPDATE (status, lock), so two processes never send the same row.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("locale", "text").execute();

  await db.schema
    .createTable("email_opt_outs")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("email_opt_outs_pk", ["user_id", "kind"])
    .execute();

  await db.schema
    .createTable("outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("application_id", "text", (c) => c.references("applications.id").onDelete("cascade"))
    .addColumn("opportunity_id", "integer", (c) => c.references("opportunities.id").onDelete("cascade"))
    // Events folded into this e-mail (new messages of one conversation): 1, 2, …
    .addColumn("items", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('pending', 'sending', 'sent', 'skipped', 'failed')`),
    )
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("claim", "text")
    .addColumn("locked_until", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .execute();
  // The drain's question (what is due), and the batching's (this conversation's latest e-mail).
  await db.schema.createIndex("outbox_status_next").on("outbox").columns(["status", "next_attempt_at"]).execute();
  await db.schema
    .createIndex("outbox_user_kind_application")
    .on("outbox")
    .columns(["user_id", "kind", "application_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("outbox").execute();
  await db.schema.dropTable("email_opt_outs").execute();
  await db.schema.alterTable("users").dropColumn("locale").execute();
}
