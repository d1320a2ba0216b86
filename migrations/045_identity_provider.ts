import { sql, type Kysely } from "kysely";

// The automatic identity provider (docs/product.md, "Identidade"; docs/operations.md):
// - identity_verifications: a verification created at the provider (IDENTITY_PROVIDER=kyc) for
//   one version of an identity, by the provider's id. Its webhook names that id; the decision it
//   carries applies only while the identity is still that version and pending (the operator's
//   WHERE), else it is recorded and ignored. A pending identity with no verification for its
//   version (the provider was unreachable) is sent again by the housekeeping.
// - identity_events: every webhook received, with what came of it; a processed or ignored event
//   id is not applied twice (a unique index).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("identity_verifications")
    .addColumn("ref", "text", (c) => c.primaryKey())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("identity_verifications_version")
    .on("identity_verifications")
    .columns(["user_id", "version"])
    .unique()
    .execute();

  await db.schema
    .createTable("identity_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("event_id", "text")
    .addColumn("ref", "text")
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("detail", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await sql`CREATE UNIQUE INDEX identity_events_once ON identity_events (provider, event_id) WHERE outcome IN ('processed', 'superseded')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("identity_events").execute();
  await db.schema.dropTable("identity_verifications").execute();
}
