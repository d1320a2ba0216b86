import { randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import { config } from "~/config.server";
import { directoryColumns } from "~/lib/directory";
import { LIMITS } from "~/lib/limits";
import { emailField, line } from "~/lib/schemas";
import { transaction } from "../../../db";
import type { UserRow } from "../../../db/schema";
import { hashPassword } from "../accounts/passwords.server";
import { endOneTimeLinks } from "../accounts/one-time-links.server";
import { hashToken } from "../accounts/sessions.server";
import { isTwoFactorOn } from "../accounts/two-factor.server";
import { AppError, parseInput } from "../platform/errors.server";
import { now } from "../platform/records.server";
import { commandLineActor, recordAudit, type Actor } from "./audit.server";

// Operator accounts: a role of their own, never chosen at registration. They are made and
// removed from the command line (npm run operator:create / operator:remove), sign in at the same
// login as everyone, and reach /admin and /api/admin only (app/web/operator.server.ts).

/** How long the set-password link of a new operator lasts. */
export const OPERATOR_LINK_HOURS = 24;

/**
 * THE place where an operator's sign-in is judged good enough for the console: every /admin page
 * and /api/admin call passes here (requireOperator, requireApiOperator). Anyone but an operator
 * gets 404. With OPERATOR_TWO_FACTOR=required (the default), an operator without two-factor
 * sign-in gets 403 `operator_two_factor_required` (the pages send them to turn it on). Turning
 * it on ends the operator's other sessions, and every later sign-in passes the second step, so
 * each session that gets through here has proved a code. A session opened with a passkey
 * (`viaPasskey`) passes too: the passkey is a possession proved with the device's own lock, and
 * cannot be phished, so it is at least as strong as a password and a code.
 */
export async function assertOperatorAccess(user: UserRow, { viaPasskey = false } = {}): Promise<void> {
  if (user.account_type !== "operator") throw new AppError(404, "not_found");
  if (config.OPERATOR_TWO_FACTOR === "required" && !viaPasskey && !(await isTwoFactorOn(user.id))) {
    throw new AppError(403, "operator_two_factor_required");
  }
}

/** Where an operator turns two-factor sign-in on (their account's security settings). */
export const OPERATOR_TWO_FACTOR_PAGE = "/account/security#two-factor";

const createSchema = z.object({
  email: emailField,
  name: line("full_name_length", LIMITS.full_name.min, LIMITS.full_name.max),
});

/**
 * Makes an operator account (or, for an operator that exists already, a new link) and returns
 * the one-time link that sets its password, built from APP_URL. The account has no usable
 * password until then. One audit row, in the same transaction.
 */
export async function createOperator(
  input: unknown,
  actor: Actor = commandLineActor(),
): Promise<{ user: Pick<UserRow, "id" | "email" | "full_name">; link: string; created: boolean }> {
  const { email, name } = parseInput(createSchema, input, "operator_invalid");
  const unusable = await hashPassword(randomBytes(32).toString("hex"));
  const token = randomBytes(32).toString("base64url");
  const at = now();
  const result = await transaction(async (trx) => {
    const existing = await trx
      .selectFrom("users")
      .select(["id", "email", "full_name", "account_type"])
      .where("email", "=", email)
      .executeTakeFirst();
    if (existing && existing.account_type !== "operator") throw new AppError(409, "operator_email_taken");
    let user = existing;
    if (!user) {
      const id = randomUUID();
      await trx
        .insertInto("users")
        .values({
          id,
          email,
          password_hash: unusable,
          display_name: null,
          full_name: name,
          account_type: "operator",
          bio: "",
          skills: "[]",
          photo_path: null,
          city: null,
          remote: 0,
          ...directoryColumns({ full_name: name, display_name: null, bio: "", skills: [], city: null }),
          locale: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      user = { id, email, full_name: name, account_type: "operator" };
    }
    // A new link replaces the earlier ones: only the latest sets the password.
    if (existing) await endOneTimeLinks(trx, user.id, at);
    await trx
      .insertInto("password_resets")
      .values({
        id: hashToken(token),
        user_id: user.id,
        expires_at: new Date(Date.parse(at) + OPERATOR_LINK_HOURS * 3_600_000).toISOString(),
        used_at: null,
        created_at: at,
      })
      .execute();
    await recordAudit(
      trx,
      actor,
      {
        action: "operator.create",
        target_type: "user",
        target_id: user.id,
        reason: existing ? "new set-password link" : null,
        before: null,
        after: { email: user.email, name: user.full_name, account_type: "operator" },
      },
      at,
    );
    return { user: { id: user.id, email: user.email, full_name: user.full_name }, created: !existing };
  });
  return { ...result, link: `${config.APP_URL}/reset-password?token=${encodeURIComponent(token)}` };
}

/**
 * Removes an operator account: its sessions end with it. The audit log keeps the operator's
 * name and e-mail in the rows of what they did, and records the removal.
 */
export async function removeOperator(input: unknown, actor: Actor = commandLineActor()) {
  const { email } = parseInput(z.object({ email: emailField }), input, "operator_invalid");
  return transaction(async (trx) => {
    const user = await trx
      .selectFrom("users")
      .select(["id", "email", "full_name"])
      .where("email", "=", email)
      .where("account_type", "=", "operator")
      .executeTakeFirst();
    if (!user) throw new AppError(404, "operator_not_found");
    await recordAudit(trx, actor, {
      action: "operator.remove",
      target_type: "user",
      target_id: user.id,
      before: { email: user.email, name: user.full_name, account_type: "operator" },
      after: null,
    });
    await trx.deleteFrom("users").where("id", "=", user.id).where("account_type", "=", "operator").execute();
    return user;
  });
}
