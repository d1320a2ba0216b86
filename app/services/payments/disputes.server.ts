import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { transaction } from "../../../db";
import type { ContractRow, Database, UserRow } from "../../../db/schema";
import { feeOf } from "~/lib/fees";
import { splitDecisionSchema } from "~/lib/payments-schemas";
import { AppError, parseInput } from "../platform/errors.server";
import { assertId, now } from "../platform/records.server";
import { notify } from "../messaging/notifications.server";
import { settleDisputedWeek } from "../contracts/hourly.server";
import {
  closeMilestones,
  currentMilestone,
  hasLaterMilestone,
  refundMilestone,
  releaseMilestone,
} from "./escrow.server";

// What an operator's decision on a dispute does to the money of the disputed milestone (the one
// being worked on): `complete` releases it to the freelancer (less the fee) and the contract goes
// on to its next milestone, or is completed with its last; `cancel` refunds it to the merchant
// and ends the contract; `split` releases R$ X to the freelancer (the fee only on that part) and
// refunds the rest, and ends the contract. An hourly contract's dispute is of a week: the decision
// settles that week's milestone and the contract goes on (settleDisputedWeek). One ledger transaction each, in the decision's own
// database transaction, with the contract's state read repeated in its UPDATE (409 otherwise).

export type DisputeDecision = "complete" | "cancel" | "split";

export type DisputeMoney = {
  /** The contract's state after the decision: on to its next milestone, or ended. */
  status: "in_progress" | "completed" | "cancelled";
  milestone_id: string;
  released_cents: number;
  fee_cents: number;
  refunded_cents: number;
};

/** `freelancer_cents` of a split: an integer from 0 to the held amount (checked against it when moving). */
export function splitAmountOf(input: unknown): number {
  return parseInput(splitDecisionSchema, input).freelancer_cents;
}

/**
 * Moves the disputed milestone's money inside the caller's transaction (the operator console's
 * decision, or settleDispute below): release, refund, or a split of `split` centavos to the
 * freelancer (the fee only on that part) and the rest refunded. 409 when nothing is held (and the
 * decision is not a cancellation), 422 when the split passes the held amount. Milestones not
 * started are cancelled when the contract ends. The caller writes the contract's new state.
 */
export async function moveDisputedMoney(
  trx: Kysely<Database>,
  contract: ContractRow,
  decision: DisputeDecision,
  split: number | null,
  at: string,
): Promise<DisputeMoney> {
  // An hourly contract's dispute is of a week: its milestone, named by the dispute (the latest).
  if (contract.kind === "hourly") {
    const dispute = await trx
      .selectFrom("disputes")
      .select("milestone_id")
      .where("contract_id", "=", contract.id)
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    return settleDisputedWeek(trx, contract, dispute?.milestone_id ?? null, decision, split, at);
  }
  const milestone = await currentMilestone(trx, contract.id);
  const funded = milestone && (milestone.status === "funded" || milestone.status === "delivered");
  if (!milestone || (contract.payments === "escrow" && !funded && decision !== "cancel")) {
    throw new AppError(409, "dispute_nothing_held");
  }
  if (decision === "split" && (split === null || split > milestone.amount_cents)) {
    throw new AppError(422, "split_amount_invalid", { freelancer_cents: "split_amount_too_large" });
  }
  const next = decision === "complete" && (await hasLaterMilestone(trx, contract, milestone.seq));
  let released = 0;
  if (decision === "complete") {
    await releaseMilestone(trx, contract, milestone, at);
    released = milestone.amount_cents;
  } else if (decision === "split" && split! > 0) {
    await releaseMilestone(trx, contract, milestone, at, split!);
    released = split!;
  } else {
    await refundMilestone(trx, contract, milestone, at);
  }
  const status = decision === "complete" ? (next ? "in_progress" : "completed") : "cancelled";
  if (status !== "in_progress") await closeMilestones(trx, contract, at);
  const held = contract.payments === "escrow" && funded;
  return {
    status,
    milestone_id: milestone.id,
    released_cents: held ? released : 0,
    fee_cents: held && released > 0 ? feeOf(released, contract.fee_bps) : 0,
    refunded_cents: held ? milestone.amount_cents - released : 0,
  };
}

/** `_operator` decides; the operator console's audit log records who. */
export async function settleDispute(
  _operator: Pick<UserRow, "id">,
  contractId: string,
  decision: DisputeDecision,
  input: unknown = {},
): Promise<{ released_cents: number; refunded_cents: number }> {
  assertId(contractId);
  const split = decision === "split" ? splitAmountOf(input) : null;
  return transaction(async (trx) => {
    const row = await trx.selectFrom("contracts").selectAll().where("id", "=", contractId).executeTakeFirst();
    if (!row) throw new AppError(404, "not_found");
    // An hourly contract's dispute is decided by the operator's console (its week, decideDispute).
    if (row.kind === "hourly") throw new AppError(409, "contract_hourly");
    if (row.status !== "in_progress" && row.status !== "delivered")
      throw new AppError(409, "contract_action_unavailable");
    const at = now();
    // The contract's row first, as every move of the contract; its state read repeated in the WHERE.
    const updated = await trx
      .updateTable("contracts")
      .set({
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
    const money = await moveDisputedMoney(trx, row, decision, split, at);
    await trx
      .updateTable("contracts")
      .set(
        money.status === "in_progress"
          ? { status: "in_progress" }
          : { status: money.status, ended_at: at, ended_by: "system", end_reason: null },
      )
      .where("id", "=", contractId)
      .execute();
    const milestone = await trx
      .selectFrom("milestones")
      .select("title")
      .where("id", "=", money.milestone_id)
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("contract_events")
      .values({
        id: randomUUID(),
        contract_id: contractId,
        seq: updated.events_count,
        kind:
          decision === "complete" ? (money.status === "in_progress" ? "milestone_released" : "completed") : "cancelled",
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
    return { released_cents: money.released_cents, refunded_cents: money.refunded_cents };
  });
}
