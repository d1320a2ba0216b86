import type { Kysely } from "kysely";
import { z } from "zod";
import { intField } from "~/lib/market-schemas";
import { MAX_SUSPENSION_DAYS, SANCTIONS, type Sanction } from "~/lib/moderation";
import { LIMITS } from "~/lib/limits";
import { text } from "~/lib/schemas";
import { transaction } from "../../../db";
import type { Database, UserRow } from "../../../db/schema";
import { AppError, parseInput } from "../platform/errors.server";
import { assertId, now } from "../platform/records.server";
import { notify } from "../messaging/notifications.server";
import { rejectOpenApplications, withdrawApplicationsOf } from "../marketplace/opportunities.server";
import { operatorActor, recordAudit, type Actor } from "./audit.server";

// Warnings, suspensions and bans. A suspension (N days) or a ban (until lifted) ends the user's
// sessions at once, on every server (sessions live in the database; findSessionUser also refuses
// a sanctioned user), closes their open opportunities with reason 'suspended' (their applicants
// are told), withdraws their applications under negotiation (the merchants are told) and flags
// their running contracts for the operator; the contracts themselves go on. Lifting it restores
// sign-in only. Each is one transaction with its audit row; its precondition is in the UPDATE's
// WHERE, so of two operators acting at once one wins and the other gets 409.

const DAY_MS = 86_400_000;

export const sanctionInputSchema = z
  .object({
    action: z.enum(SANCTIONS, { errorMap: () => ({ message: "sanction_invalid" }) }),
    reason: text("moderation_reason_length", LIMITS.moderation_reason.min, LIMITS.moderation_reason.max),
    days: intField("suspension_days_invalid", 1, MAX_SUSPENSION_DAYS).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.action === "suspend" && v.days === undefined) {
      ctx.addIssue({ code: "custom", path: ["days"], message: "suspension_days_invalid" });
    }
  });

export type SanctionInput = { action: Sanction; reason: string; days?: number };

/** Whether the user may not sign in at `at` (banned, or suspended until later). */
export function isSanctioned(user: Pick<UserRow, "suspended_until" | "banned_at">, at = now()) {
  return user.banned_at !== null || (user.suspended_until !== null && user.suspended_until > at);
}

/** A user an operator may sanction: a merchant or freelancer (operators are removed, not sanctioned). */
async function sanctionable(trx: Kysely<Database>, userId: string) {
  assertId(userId);
  const user = await trx
    .selectFrom("users")
    .selectAll()
    .where("id", "=", userId)
    .where("account_type", "in", ["merchant", "freelancer"])
    .executeTakeFirst();
  if (!user) throw new AppError(404, "user_not_found");
  return user;
}

type Outcome = { action: Sanction; user_id: string; until: string | null; effects?: Effects };
type Effects = {
  sessions_ended: number;
  opportunities_closed: number;
  applications_withdrawn: number;
  contracts_flagged: number;
};

/**
 * Ends a sanctioned user's access and work in progress (see above), in the sanction's transaction.
 */
async function endAccess(
  trx: Kysely<Database>,
  userId: string,
  flag: "suspended" | "banned",
  at: string,
): Promise<Effects> {
  const sessions = await trx.deleteFrom("sessions").where("user_id", "=", userId).executeTakeFirst();
  const closed = await trx
    .updateTable("opportunities")
    .set({ status: "closed", closed_reason: "suspended", updated_at: at })
    .where("merchant_id", "=", userId)
    .where("status", "=", "open")
    .returning("id")
    .execute();
  for (const { id } of closed) await rejectOpenApplications(trx, id, "closed");
  const withdrawn = await withdrawApplicationsOf(trx, userId, at);
  const flagged = await trx
    .updateTable("contracts")
    .set({ flagged_at: at, flag_reason: flag })
    .where((eb) => eb.or([eb("merchant_id", "=", userId), eb("freelancer_id", "=", userId)]))
    .where("status", "in", ["in_progress", "delivered"])
    .where("flagged_at", "is", null)
    .executeTakeFirst();
  return {
    sessions_ended: Number(sessions.numDeletedRows),
    opportunities_closed: closed.length,
    applications_withdrawn: withdrawn,
    contracts_flagged: Number(flagged.numUpdatedRows),
  };
}

/**
 * Applies a sanction inside the caller's transaction (the console's user page, or the resolution
 * of reports): the change, its effects, the notice to the user and the audit row.
 */
export async function applySanction(
  trx: Kysely<Database>,
  actor: Actor,
  userId: string,
  input: SanctionInput,
  at = now(),
): Promise<Outcome> {
  const user = await sanctionable(trx, userId);
  const before = { suspended_until: user.suspended_until, banned_at: user.banned_at };
  const { action, reason } = input;
  if (action === "warn") {
    await notify(trx, {
      user_id: userId,
      kind: "moderation_warning",
      application_id: null,
      opportunity_id: null,
      detail: { reason },
    });
    await recordAudit(trx, actor, { action: "user.warn", target_type: "user", target_id: userId, reason }, at);
    return { action, user_id: userId, until: null };
  }
  if (action === "lift") {
    const lifted = await trx
      .updateTable("users")
      .set({ suspended_until: null, banned_at: null, sanction_reason: null, updated_at: at })
      .where("id", "=", userId)
      .where((eb) => eb.or([eb("banned_at", "is not", null), eb("suspended_until", ">", at)]))
      .executeTakeFirst();
    if (Number(lifted.numUpdatedRows) === 0) throw new AppError(409, "user_not_sanctioned");
    await notify(trx, {
      user_id: userId,
      kind: "account_restored",
      application_id: null,
      opportunity_id: null,
      detail: { reason },
    });
    await recordAudit(
      trx,
      actor,
      {
        action: "user.lift",
        target_type: "user",
        target_id: userId,
        reason,
        before,
        after: { suspended_until: null, banned_at: null },
      },
      at,
    );
    return { action, user_id: userId, until: null };
  }
  const ban = action === "ban";
  if (!ban && input.days === undefined) {
    throw new AppError(422, "validation_failed", { days: "suspension_days_invalid" });
  }
  const until = ban ? null : new Date(Date.parse(at) + input.days! * DAY_MS).toISOString();
  // A ban overrides a suspension; a suspension needs the user free (lift first to change one).
  const changed = await trx
    .updateTable("users")
    .set({ suspended_until: until, banned_at: ban ? at : null, sanction_reason: reason, updated_at: at })
    .where("id", "=", userId)
    .where("banned_at", "is", null)
    .$if(!ban, (qb) => qb.where((eb) => eb.or([eb("suspended_until", "is", null), eb("suspended_until", "<=", at)])))
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) === 0) throw new AppError(409, "user_already_sanctioned");
  const effects = await endAccess(trx, userId, ban ? "banned" : "suspended", at);
  await notify(trx, {
    user_id: userId,
    kind: ban ? "account_banned" : "account_suspended",
    application_id: null,
    opportunity_id: null,
    detail: { reason, until },
  });
  await recordAudit(
    trx,
    actor,
    {
      action: ban ? "user.ban" : "user.suspend",
      target_type: "user",
      target_id: userId,
      reason,
      before,
      after: { suspended_until: until, banned_at: ban ? at : null, ...effects },
    },
    at,
  );
  return { action, user_id: userId, until, effects };
}

/** From the console's user page: warn, suspend for N days, ban, or lift. */
export async function sanctionUser(operator: UserRow, userId: string, input: unknown): Promise<Outcome> {
  assertId(userId, "user_not_found");
  const data = parseInput(sanctionInputSchema, input);
  return transaction((trx) => applySanction(trx, operatorActor(operator), userId, data));
}
