import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { transaction } from "../../../db";
import type { UserRow } from "../../../db/schema";
import { splitDecisionSchema } from "~/lib/payments-schemas";
import { AppError, parseInput } from "../platform/errors.server";
import { assertId, now } from "../platform/records.server";
import { notify } from "../messaging/notifications.server";
import { closeMilestones, currentMilestone, refundMilestone, releaseMilestone } from "./escrow.server";

// What an operator's decision on a dispute does to the money of the disputed milestone (the one
// being worked on): `complete` releases it to the freelancer (less the fee) and the contract goes
// on to its next milestone, or is completed with its last; `cancel` refunds it to the merchant
// and ends the contract; `split` releases R$ X to the freelancer (the fee only on that part) and
// refunds the rest, and ends the contract. One ledger transaction each, in the decision's own
// database transaction, with the contract's state read repeated in its UPDATE (409 otherwise).

export type DisputeDecision = "complete" | "cancel" | "split";

/** `_operator` decides; the operator console's audit log records who. */
export async function settleDispute(
  _operator: Pick<UserRow, "id">,
  contractId: string,
  decision: DisputeDecision,
  input: unknown = {},
): Promise<{ released_cents: number; refunded_cents: number }> {
  assertId(contractId);
  const split = decision === "split" ? parseInput(splitDecisionSchema, input).freelancer_cents : null;
  return transaction(async (trx) => {
    const row = await trx.selectFrom("contracts").selectAll().where("id", "=", contractId).executeTakeFirst();
    if (!row) throw new AppError(404, "not_found");
    if (row.status !== "in_progress" && row.status !== "delivered")
      throw new AppError(409, "contract_action_unavailable");
    const milestone = await currentMilestone(trx, contractId);
    const funded = milestone && (milestone.status === "funded" || milestone.status === "delivered");
    if (!milestone || (row.payments === "escrow" && !funded && decision !== "cancel")) {
      throw new AppError(409, "dispute_nothing_held");
    }
    if (split !== null && split > milestone.amount_cents) {
      throw new AppError(422, "split_amount_invalid", { freelancer_cents: "split_amount_too_large" });
    }
    const next =
      decision === "complete"
        ? await trx
            .selectFrom("milestones")
            .select("id")
            .where("contract_id", "=", contractId)
            .where("status", "=", "awaiting_funding")
            .where("seq", ">", milestone.seq)
            .limit(1)
            .executeTakeFirst()
        : undefined;
    const at = now();
    const ending =
      decision === "complete" && next
        ? { status: "in_progress" as const }
        : {
            status: decision === "complete" ? ("completed" as const) : ("cancelled" as const),
            ended_at: at,
            ended_by: "system" as const,
            end_reason: null,
          };
    const updated = await trx
      .updateTable("contracts")
      .set({
        ...ending,
        delivered_at: null,
        review_due_at: null,
        cancel_requested_by: null,
        cancel_request_reason: null,
        events_count: sql<number>`events_count + 1`,
        updated_at: at,
      })
      .where("id", "=", contractId)
      .where("status", "=", row.status)
      .where("events_count", "=", row.events_count)
      .returning("events_count")
      .executeTakeFirst();
    if (!updated) throw new AppError(409, "contract_changed");
    let released = 0;
    if (decision === "complete") {
      await releaseMilestone(trx, row, milestone, at);
      released = milestone.amount_cents;
    } else if (decision === "split" && split! > 0) {
      await releaseMilestone(trx, row, milestone, at, split!);
      released = split!;
    } else {
      await refundMilestone(trx, row, milestone, at);
    }
    if (ending.status !== "in_progress") await closeMilestones(trx, contractId, at);
    await trx
      .insertInto("contract_events")
      .values({
        id: randomUUID(),
        contract_id: contractId,
        seq: updated.events_count,
        kind: decision === "complete" ? (next ? "milestone_released" : "completed") : "cancelled",
        author: "system",
        message: milestone.title,
        created_at: at,
      })
      .execute();
    await notify(
      trx,
      [row.merchant_id, row.freelancer_id].map((user_id) => ({
        user_id,
        kind: decision === "complete" ? ("contract_completed" as const) : ("contract_cancelled" as const),
        application_id: contractId,
        opportunity_id: row.opportunity_id,
      })),
    );
    return { released_cents: released, refunded_cents: milestone.amount_cents - released };
  });
}
