import { sql, type Kysely } from "kysely";

// Indexes for the marketplace's hot lists, and the merchant's optional note when rejecting.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("applications").addColumn("rejection_message", "text").execute();

  // Freelancers browse open opportunities sorted by budget or deadline.
  await db.schema
    .createIndex("opportunities_status_budget_max")
    .on("opportunities")
    .columns(["status", "budget_max_cents"])
    .execute();
  await db.schema
    .createIndex("opportunities_status_budget_min")
    .on("opportunities")
    .columns(["status", "budget_min_cents"])
    .execute();
  await db.schema
    .createIndex("opportunities_status_deadline")
    .on("opportunities")
    .columns(["status", "deadline"])
    .execute();
  // "Awaiting confirmation" and the dashboards filter applications by status.
  await db.schema
    .createIndex("applications_freelancer_status")
    .on("applications")
    .columns(["freelancer_id", "status"])
    .execute();
  // The unread badge is read on every page; only unread rows are indexed.
  await sql`CREATE INDEX notifications_user_unread ON notifications (user_id, created_at) WHERE read_at IS NULL`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of [
    "notifications_user_unread",
    "applications_freelancer_status",
    "opportunities_status_deadline",
    "opportunities_status_budget_min",
    "opportunities_status_budget_max",
  ]) {
    await db.schema.dropIndex(name).execute();
  }
  await db.schema.alterTable("applications").dropColumn("rejection_message").execute();
}
