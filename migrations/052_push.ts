import { sql, type Kysely } from "kysely";

// Web Push (docs/product.md, section 6): the devices each user subscribed (push_subscriptions, at
// most 10 a user, one row per endpoint), the kinds each user turned off for push (push_opt_outs;
// every kind is on by default, as email_opt_outs), the channel of an outbox row (an e-mail and a
// push of one event are two rows, retried apart), and the VAPID key pair generated on first use
// when the settings give none (one row: two servers starting at once keep the same pair).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("push_subscriptions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("endpoint", "text", (c) => c.notNull().unique())
    .addColumn("p256dh", "text", (c) => c.notNull())
    .addColumn("auth", "text", (c) => c.notNull())
    .addColumn("user_agent", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_sent_at", "text")
    .execute();
  await db.schema.createIndex("push_subscriptions_user").on("push_subscriptions").column("user_id").execute();

  await db.schema
    .createTable("push_opt_outs")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("push_opt_outs_pk", ["user_id", "kind"])
    .execute();

  await db.schema
    .alterTable("outbox")
    .addColumn("channel", "text", (c) =>
      c
        .notNull()
        .defaultTo("email")
        .check(sql`channel in ('email', 'push')`),
    )
    .execute();

  await db.schema
    .createTable("vapid_keys")
    .addColumn("id", "integer", (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn("public_key", "text", (c) => c.notNull())
    .addColumn("private_key", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("vapid_keys").execute();
  await db.schema.alterTable("outbox").dropColumn("channel").execute();
  await db.schema.dropTable("push_opt_outs").execute();
  await db.schema.dropTable("push_subscriptions").execute();
}
