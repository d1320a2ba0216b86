import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema";

/**
 * Ends every one-time link of the account still unused: password reset and set-password links
 * (operator:create's), links that would change the address, and the second step of a sign-in
 * begun with the password. (A confirmation link only ever confirms the address it was sent to,
 * while it is still the account's, so it may stay.) Called, in the transaction of the change, whenever the account's
 * password is set (reset, change, a set-password link) or a new set-password link is made, and
 * when its address changes: a link sent before must not outlive the password or the address it
 * was sent under (docs/product.md, "Contas e sessões").
 */
export async function endOneTimeLinks(trx: Kysely<Database>, userId: string, at: string) {
  await trx
    .updateTable("password_resets")
    .set({ used_at: at })
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .execute();
  await trx
    .updateTable("email_tokens")
    .set({ used_at: at })
    .where("user_id", "=", userId)
    .where("purpose", "=", "change")
    .where("used_at", "is", null)
    .execute();
  await trx.deleteFrom("login_challenges").where("user_id", "=", userId).execute();
}
