import { z } from "zod";
import { config } from "~/config.server";
import { newPasswordField } from "~/lib/schemas";
import { transaction } from "../../../db";
import type { Kysely } from "kysely";
import type { Database, UserRow } from "../../../db/schema";
import { emailTime, queueAccountEmail } from "../messaging/account-email.server";
import { AppError, parseInput } from "../platform/errors.server";
import { now } from "../platform/records.server";
import { hashPassword } from "./passwords.server";
import { endOneTimeLinks } from "./one-time-links.server";
import { hashToken } from "./sessions.server";
import { assertPassword } from "./verification.server";

// Changing the password while signed in (docs/product.md, "Contas e sessões"): the current
// password (a wrong one counts like a wrong sign-in), then the new one; every other session of
// the account ends, the one making the change goes on, and so does every unused reset link
// (one-time-links.server.ts). The new hash is written only over the
// hash the current password was checked against (the precondition in the WHERE), so two changes
// at once have one winner; the other gets 409. The account's address is told, with the link to
// reset the password should it not have been its owner.

const schema = z
  .object({
    password: z
      .string({ required_error: "password_required", invalid_type_error: "password_required" })
      .min(1, "password_required")
      .max(1_024, "password_length"),
    new_password: newPasswordField,
  })
  .refine((v) => v.password !== v.new_password, { path: ["new_password"], message: "password_same" });

export async function changePassword(user: UserRow, input: unknown, currentToken: string | null) {
  const { password, new_password } = parseInput(schema, input, "password_change_failed");
  await assertPassword(user, password);
  const hash = await hashPassword(new_password);
  return transaction(async (trx) => {
    const at = now();
    const changed = await trx
      .updateTable("users")
      .set({ password_hash: hash, updated_at: at })
      .where("id", "=", user.id)
      .where("password_hash", "=", user.password_hash)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) throw new AppError(409, "password_changed_meanwhile");
    let others = trx.deleteFrom("sessions").where("user_id", "=", user.id);
    if (currentToken) others = others.where("id", "!=", hashToken(currentToken));
    const ended = await others.executeTakeFirst();
    await endOneTimeLinks(trx, user.id, at);
    await tellPasswordChanged(trx, user.id, at);
    return { ended: Number(ended.numDeletedRows) };
  });
}

/**
 * Queues "sua senha foi alterada" to the account's address, in the transaction of the change (here
 * or by a reset link), with the way to reset it should it not have been its owner. Passkeys sign
 * in without the password, so they outlive it: when the account has any, the e-mail names them
 * and asks the owner to review them (remove any they do not recognise) in the security settings.
 */
export async function tellPasswordChanged(trx: Kysely<Database>, userId: string, at: string) {
  const passkeys = await trx
    .selectFrom("passkeys")
    .select("name")
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .execute();
  const params = {
    at: emailTime(at),
    link: `${config.APP_URL}/forgot-password`,
    ...(passkeys.length
      ? {
          context: "passkeys",
          passkeys: passkeys.map((p) => `- ${p.name}`).join("\n"),
          security: `${config.APP_URL}/account/security#passkeys`,
        }
      : {}),
  };
  await queueAccountEmail(trx, userId, "password_changed", { params }, at);
}
