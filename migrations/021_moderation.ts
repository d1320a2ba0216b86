import { sql, type Kysely } from "kysely";

// Reports and moderation. Any signed-in user reports an opportunity, a profile, a message, a
// review or a reply (reports: one open report per reporter and target, by a partial unique
// index); operators resolve them by target. Hidden content keeps its row with when and why it
// was hidden (hidden_at, hidden_reason; a profile's photo is set aside in hidden_photo_path), so
// hiding is undone by clearing them. Sanctions live on the user: suspended_until (a suspension
// ends by itself), banned_at (until lifted), sanction_reason. Running contracts of a sanctioned
// user are flagged for the operator (contracts.flagged_at). Opportunities closed by a sanction
// say so (closed_reason 'suspended'); those of young accounts wait for an operator while
// pre-moderation is on (held_at; settings.premoderation_days). Notifications and their e-mails
// carry a detail (JSON: what, why, until when) for the notices of moderation.

const columns: [string, string][] = [
  ["users", "suspended_until"],
  ["users", "banned_at"],
  ["users", "sanction_reason"],
  ["users", "profile_hidden_at"],
  ["users", "profile_hidden_reason"],
  ["users", "hidden_photo_path"],
  ["opportunities", "hidden_at"],
  ["opportunities", "hidden_reason"],
  ["opportunities", "held_at"],
  ["opportunities", "closed_reason"],
  ["messages", "hidden_at"],
  ["messages", "hidden_reason"],
  ["reviews", "hidden_at"],
  ["reviews", "hidden_reason"],
  ["reviews", "reply_hidden_at"],
  ["reviews", "reply_hidden_reason"],
  ["contracts", "flagged_at"],
  ["contracts", "flag_reason"],
  ["notifications", "detail"],
  ["outbox", "detail"],
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, column] of columns) await db.schema.alterTable(table).addColumn(column, "text").execute();

  await db.schema
    .createTable("reports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("reporter_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("target_type", "text", (c) =>
      c.notNull().check(sql`target_type in ('opportunity', 'profile', 'message', 'review', 'reply')`),
    )
    .addColumn("target_id", "text", (c) => c.notNull())
    // Whose content it is: the person warned, suspended or banned.
    .addColumn("author_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("details", "text")
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('open', 'dismissed', 'actioned')`))
    // What the operator did (dismiss, hide, warn, suspend, ban), who, when and why.
    .addColumn("resolution", "text")
    .addColumn("resolution_reason", "text")
    .addColumn("resolved_by", "text")
    .addColumn("resolved_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX reports_one_open ON reports (reporter_id, target_type, target_id) WHERE status = 'open'`.execute(
    db,
  );
  await db.schema.createIndex("reports_target").on("reports").columns(["target_type", "target_id", "status"]).execute();
  await db.schema.createIndex("reports_status_created").on("reports").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("reports_author").on("reports").columns(["author_id", "created_at"]).execute();

  await db.schema
    .createTable("settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  // The operator's queues: few rows each, read through partial indexes.
  await sql`CREATE INDEX opportunities_held ON opportunities (held_at) WHERE held_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX contracts_flagged ON contracts (flagged_at) WHERE flagged_at IS NOT NULL`.execute(db);
  await sql`CREATE INDEX users_sanctioned ON users (suspended_until, banned_at) WHERE suspended_until IS NOT NULL OR banned_at IS NOT NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX users_sanctioned`.execute(db);
  await sql`DROP INDEX contracts_flagged`.execute(db);
  await sql`DROP INDEX opportunities_held`.execute(db);
  await db.schema.dropTable("settings").execute();
  await db.schema.dropTable("reports").execute();
  for (const [table, column] of [...columns].reverse()) {
    await db.schema.alterTable(table).dropColumn(column).execute();
  }
}
