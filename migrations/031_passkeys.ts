import type { Kysely } from "kysely";

// Passkeys (WebAuthn; docs/product.md, "Contas e sessões"):
// - passkeys: one row per credential an account registered: its id (base64url, as the browser
//   gives it), the public key (COSE, base64url), the signature counter last seen (a counter that
//   does not grow is refused as a cloned authenticator), the transports the browser reported
//   (JSON), a name its owner sees, when it was added and last used.
// - webauthn_challenges: the SHA-256 of each challenge handed out, what it is for ("register",
//   tied to the account, or "sign_in", tied to no one: the passkey says whose it is) and until
//   when it holds (5 minutes). Deleted when used, so it works once.
// - sessions.passkey_id: the passkey a session was opened with (null for a password sign-in);
//   such a session counts as two-factor for the console.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("passkeys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("public_key", "text", (c) => c.notNull())
    .addColumn("counter", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("transports", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema.createIndex("passkeys_user").on("passkeys").columns(["user_id", "created_at"]).execute();

  await db.schema
    .createTable("webauthn_challenges")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webauthn_challenges_expiry").on("webauthn_challenges").column("expires_at").execute();

  await db.schema.alterTable("sessions").addColumn("passkey_id", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("sessions").dropColumn("passkey_id").execute();
  await db.schema.dropTable("webauthn_challenges").execute();
  await db.schema.dropTable("passkeys").execute();
}
