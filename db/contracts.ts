import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { config } from "../app/config.server";
import { DEFAULT_MILESTONE_TITLE } from "../app/lib/approval";
import type { ContractRow, Database, MilestoneRow } from "./schema";

const DAY_MS = 86_400_000;

export type NewContract = Pick<
  ContractRow,
  "id" | "opportunity_id" | "merchant_id" | "freelancer_id" | "price_cents" | "delivery_days"
>;

/** A new milestone of a contract, nothing delivered, funded or settled yet. */
export function newMilestone(
  contractId: string,
  fields: Pick<MilestoneRow, "seq" | "title" | "amount_cents" | "days" | "status" | "proposed_by">,
  at: string,
): MilestoneRow {
  return {
    id: randomUUID(),
    contract_id: contractId,
    ...fields,
    deliveries_count: 0,
    released_cents: 0,
    fee_cents: 0,
    refunded_cents: 0,
    funded_at: null,
    settled_at: null,
    created_at: at,
    updated_at: at,
  };
}

/**
 * The contract of a hire made at `at` (the accept's transaction, or a seeded accepted
 * application): in progress, due delivery_days later, its history opened with a `created` event,
 * paid as PAYMENTS says now (with PLATFORM_FEE_BPS frozen) in one milestone with the whole price:
 * waiting for its funding with escrow, ready for the work without.
 */
export async function insertContract(
  trx: Kysely<Database>,
  input: NewContract,
  at: string,
  payments: { mode: "off" | "escrow"; fee_bps: number } = {
    mode: config.PAYMENTS,
    fee_bps: config.PAYMENTS === "escrow" ? config.PLATFORM_FEE_BPS : 0,
  },
) {
  await trx
    .insertInto("contracts")
    .values({
      ...input,
      status: "in_progress",
      due_at: new Date(Date.parse(at) + input.delivery_days * DAY_MS).toISOString(),
      overdue_at: null,
      delivered_at: null,
      review_due_at: null,
      reminded_at: null,
      deliveries_count: 0,
      events_count: 1,
      cancel_requested_by: null,
      cancel_request_reason: null,
      ended_at: null,
      ended_by: null,
      end_reason: null,
      payments: payments.mode,
      fee_bps: payments.fee_bps,
      milestones_count: 1,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await trx
    .insertInto("milestones")
    .values(
      newMilestone(
        input.id,
        {
          seq: 1,
          title: DEFAULT_MILESTONE_TITLE,
          amount_cents: input.price_cents,
          days: input.delivery_days,
          status: payments.mode === "escrow" ? "awaiting_funding" : "funded",
          proposed_by: null,
        },
        at,
      ),
    )
    .execute();
  await trx
    .insertInto("contract_events")
    .values({
      id: randomUUID(),
      contract_id: input.id,
      seq: 1,
      kind: "created",
      author: "system",
      message: null,
      // The price of the hire, kept on its line whatever the contract grows to later.
      amount_cents: input.price_cents,
      created_at: at,
    })
    .execute();
}
