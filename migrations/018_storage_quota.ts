import { sql, type Kysely } from "kysely";

// What each user keeps in the file store (message and delivery files), counted on the user's
// row so the per-user quota is checked and reserved in one conditional UPDATE. Files sent before
// this are counted here: deliveries are the freelancer's, a message's files its author's.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("storage_bytes", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    UPDATE users SET storage_bytes =
      COALESCE((
        SELECT SUM(f.size_bytes) FROM contract_files f JOIN contracts c ON c.id = f.contract_id
        WHERE c.freelancer_id = users.id
      ), 0) +
      COALESCE((
        SELECT SUM(mf.size_bytes) FROM message_files mf
        JOIN messages m ON m.id = mf.message_id
        JOIN conversations cv ON cv.application_id = m.application_id
        WHERE (m.author = 'freelancer' AND cv.freelancer_id = users.id) OR (m.author = 'merchant' AND cv.merchant_id = users.id)
      ), 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").dropColumn("storage_bytes").execute();
}
