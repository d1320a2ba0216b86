import { type Kysely } from "kysely";

// "Já paguei" (docs/payments.md, "Pix"): the payer of a manual Pix charge says it was paid, once,
// while the charge waits for the operator's confirmation. Who said so (the charge's merchant) and
// when are kept on the charge; the operator's overview counts the charges claimed and not yet
// confirmed.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("pix_charges").addColumn("claimed_at", "text").execute();
  await db.schema.alterTable("pix_charges").addColumn("claimed_by", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("pix_charges").dropColumn("claimed_by").execute();
  await db.schema.alterTable("pix_charges").dropColumn("claimed_at").execute();
}
