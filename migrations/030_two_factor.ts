import type { Kysely } from "kysely";

// Two-factor sign-in with an authenticator app (docs/product.md, "Contas e sessões"):
// - two_factor: one row per account that started enrolling; the TOTP secret (base32, as the app
//   needs it back to check codes), confirmed_at (null while enrolling: the factor is on only
//   once a first code confirmed it), last_step (the time step of the last code accepted: a code
//   is accepted only for a later step, so the same code never works twice).
// - recovery_codes: the 10 single-use codes, only their SHA-256 kept, used_at once spent.
// - login_challenges: the step between the password and the code: the SHA-256 of a short-lived
//   token (10 minutes) handed to the login page or the API client once the password was right.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("two_factor")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("confirmed_at", "text")
    .addColumn("last_step", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("recovery_codes")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("recovery_codes_pk", ["user_id", "code_hash"])
    .execute();

  await db.schema
    .createTable("login_challenges")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("login_challenges_user").on("login_challenges").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("login_challenges").execute();
  await db.schema.dropTable("recovery_codes").execute();
  await db.schema.dropTable("two_factor").execute();
}
