import { sql, type Kysely } from "kysely";

// WhatsApp alerts (docs/product.md, section 6): each user's number (one a user, confirmed by a
// code sent to it; opted_out_at once the person wrote STOP, unusable_at once the Cloud API said it
// is not on WhatsApp), the kinds each user turned ON for WhatsApp (whatsapp_opt_ins: every kind
// is off until then, the opposite of e-mail and push), the day's counters of the caps (per user
// and, under user_id '', for the platform; per São Paulo day), each message sent (its WhatsApp id,
// for the statuses the webhook reports), and the outbox's new channel.
async function common(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("whatsapp_numbers")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("code_hash", "text")
    .addColumn("code_expires_at", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("codes_sent", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("codes_window_at", "text")
    .addColumn("confirmed_at", "text")
    .addColumn("opted_out_at", "text")
    .addColumn("unusable_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("whatsapp_numbers_phone").on("whatsapp_numbers").column("phone").execute();

  await db.schema
    .createTable("whatsapp_opt_ins")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("whatsapp_opt_ins_pk", ["user_id", "kind"])
    .execute();

  await db.schema
    .createTable("whatsapp_daily")
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull())
    .addColumn("sent", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("whatsapp_daily_pk", ["day", "user_id"])
    .execute();

  await db.schema
    .createTable("whatsapp_sends")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("outbox_id", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("whatsapp_sends_user").on("whatsapp_sends").column("user_id").execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await common(db);
  // SQLite keeps a column's CHECK in the table's definition: a new column with the wider check
  // takes the old one's values and then its name.
  await db.schema
    .alterTable("outbox")
    .addColumn("channel_053", "text", (c) =>
      c
        .notNull()
        .defaultTo("email")
        .check(sql`channel_053 in ('email', 'push', 'whatsapp')`),
    )
    .execute();
  await sql`UPDATE outbox SET channel_053 = channel`.execute(db);
  await db.schema.alterTable("outbox").dropColumn("channel").execute();
  await db.schema.alterTable("outbox").renameColumn("channel_053", "channel").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM outbox WHERE channel = 'whatsapp'`.execute(db);
  await db.schema.dropTable("whatsapp_sends").execute();
  await db.schema.dropTable("whatsapp_daily").execute();
  await db.schema.dropTable("whatsapp_opt_ins").execute();
  await db.schema.dropTable("whatsapp_numbers").execute();
}

export const postgres = {
  async up(db: Kysely<unknown>): Promise<void> {
    await common(db);
    await sql`ALTER TABLE outbox DROP CONSTRAINT IF EXISTS outbox_channel_check`.execute(db);
    await sql`ALTER TABLE outbox ADD CONSTRAINT outbox_channel_check CHECK (channel in ('email', 'push', 'whatsapp'))`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>): Promise<void> {
    await down(db);
  },
};
