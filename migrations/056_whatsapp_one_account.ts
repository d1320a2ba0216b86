import { sql, type Kysely } from "kysely";

// A WhatsApp number confirmed on one account only (docs/product.md, section 6, "WhatsApp"): the
// person who proves the number with a code takes it, and a STOP or a "not on WhatsApp" of that
// number reaches that one account. Numbers confirmed on two accounts before this keep the latest.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM whatsapp_numbers
    WHERE confirmed_at IS NOT NULL
      AND EXISTS (
        SELECT 1 FROM whatsapp_numbers w
        WHERE w.phone = whatsapp_numbers.phone
          AND w.confirmed_at IS NOT NULL
          AND (w.confirmed_at > whatsapp_numbers.confirmed_at
            OR (w.confirmed_at = whatsapp_numbers.confirmed_at AND w.user_id > whatsapp_numbers.user_id))
      )`.execute(db);
  await db.schema
    .createIndex("whatsapp_numbers_confirmed_phone")
    .on("whatsapp_numbers")
    .column("phone")
    .unique()
    .where(sql.ref("confirmed_at"), "is not", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("whatsapp_numbers_confirmed_phone").execute();
}
