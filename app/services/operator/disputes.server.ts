import { sql, type Kysely, type Updateable } from "kysely";
import { disputeDecisionInputSchema, disputeQueueQuerySchema } from "~/lib/dispute-schemas";
import { db, transaction } from "../../../db";
import type { ContractRow, ContractsTable, Database, DisputeRow, UserRow } from "../../../db/schema";
import { AppError, parseInput } from "../platform/errors.server";
import { personJson, PEOPLE_COLUMNS } from "../platform/participants.server";
import { assertId, now, offsetOf, pageMeta, type PageMeta } from "../platform/records.server";
import { notify } from "../messaging/notifications.server";
import {
  addEvent,
  ended,
  getContractRecord,
  readContractFile,
  type ContractRecordJson,
} from "../contracts/contracts.server";
import { toDisputeJson, type DisputeJson } from "../contracts/dispute-json";
import { moveDisputedMoney, splitAmountOf, type DisputeMoney } from "../payments/disputes.server";
import { operatorActor, recordAudit } from "./audit.server";

// The operator's side of disputes: the queue, a dispute with its contract's whole record, and the
// decision. A decision is final: one transaction marks the dispute decided (WHERE status = 'open':
// of two operators deciding at once, one wins and the other gets 409), applies the decision's kind
// to the contract (DISPUTE_DECISIONS below), unfreezes it, adds the decision to its timeline,
// tells both sides (notification and e-mail, with the reason) and writes the audit log's row.

// ---------------------------------------------------------------------------------------------
// Decisions: the extension point

/** What a decision's kind sees, inside the decision's transaction. */
export type DisputeDecisionContext = {
  trx: Kysely<Database>;
  operator: UserRow;
  dispute: DisputeRow;
  /** The contract as read in the transaction (in progress or delivered, frozen by the dispute). */
  contract: ContractRow;
  /** The operator's written reason. */
  reason: string;
  /** The whole decision input, for kinds that take more (the payments' split: the freelancer's part). */
  input: Record<string, unknown>;
  at: string;
};

/**
 * What a kind does: the contract's new state (status and end), written by the decision with
 * the state read in its WHERE; and what the audit log's row records of it (money moved, say).
 * A kind may write more in `ctx.trx` (the payments' ledger), all or nothing with the decision.
 */
export type DisputeOutcome = {
  contract: Updateable<ContractsTable>;
  audit?: Record<string, unknown>;
};

export type DisputeDecisionHandler = (ctx: DisputeDecisionContext) => Promise<DisputeOutcome>;

/**
 * The kinds of decision, by name (app/lib/disputes.ts lists those the console offers). The
 * payments add theirs here (`split`: part released to the freelancer, the rest refunded), and
 * make `complete` and `cancel` move the held money, in the same transaction. An hourly contract's
 * dispute is of a week: each kind settles that week's milestone (settleDisputedWeek: `complete`
 * pays its minutes) and the contract goes on.
 */
export const DISPUTE_DECISIONS: Record<string, DisputeDecisionHandler> = {
  /**
   * The work is accepted: the contract is completed. With payments, the held milestone is
   * released to the freelancer (less the fee); a contract with a milestone still to fund goes
   * on to it instead of ending.
   */
  complete: async (ctx) => {
    if (ctx.contract.payments !== "escrow" && ctx.contract.kind !== "hourly") {
      return { contract: { status: "completed", ...ended("system", ctx.at, ctx.reason) } };
    }
    return withMoney(ctx, await moveDisputedMoney(ctx.trx, ctx.contract, "complete", null, ctx.at));
  },
  /** The contract ends without the work: cancelled. With payments, the held money is refunded. */
  cancel: async (ctx) => {
    if (ctx.contract.payments !== "escrow" && ctx.contract.kind !== "hourly") {
      return { contract: { status: "cancelled", ...ended("system", ctx.at, ctx.reason) } };
    }
    return withMoney(ctx, await moveDisputedMoney(ctx.trx, ctx.contract, "cancel", null, ctx.at));
  },
  /**
   * Contracts with payments only: `freelancer_cents` (0 to the held amount) released to the
   * freelancer, the fee on that part only, the rest refunded to the merchant; the contract ends.
   */
  split: async (ctx) => {
    if (ctx.contract.payments !== "escrow") {
      throw new AppError(422, "validation_failed", { decision: "dispute_split_without_payments" });
    }
    const split = splitAmountOf(ctx.input);
    return withMoney(ctx, await moveDisputedMoney(ctx.trx, ctx.contract, "split", split, ctx.at));
  },
};

/** A decision that moved money: the contract's new state and, for the audit log, the amounts. */
function withMoney({ at, reason }: DisputeDecisionContext, money: DisputeMoney): DisputeOutcome {
  const { status, ...amounts } = money;
  return {
    contract: {
      status,
      ...(status === "in_progress" ? {} : ended("system", at, reason)),
      delivered_at: null,
      review_due_at: null,
      cancel_requested_by: null,
      cancel_request_reason: null,
    },
    audit: { money: amounts },
  };
}

/** What a decision moved, for the two sides' notice: released (before the fee) and refunded. */
function moneyOf(outcome: DisputeOutcome) {
  const money = outcome.audit?.money as Partial<DisputeMoney> | undefined;
  if (!money || (!money.released_cents && !money.refunded_cents)) return {};
  return { released_cents: money.released_cents ?? 0, refunded_cents: money.refunded_cents ?? 0 };
}

/** The decisions a dispute's contract may take: the split only where money is held. */
export function decisionsFor(contract: Pick<ContractRow, "payments">): string[] {
  return Object.keys(DISPUTE_DECISIONS).filter((kind) => kind !== "split" || contract.payments === "escrow");
}

export type DecisionJson = { dispute: DisputeJson; contract_status: ContractRow["status"] };

/**
 * Decides an open dispute: `decision` (a kind of DISPUTE_DECISIONS) and `reason` (written, shown
 * to both sides). 404 for an unknown dispute, 422 for an unknown kind or a missing reason, 409
 * once decided (also for the second of two operators at once) or if the contract moved.
 */
export async function decideDispute(operator: UserRow, disputeId: string, input: unknown): Promise<DecisionJson> {
  assertId(disputeId);
  const parsed = parseInput(disputeDecisionInputSchema, input);
  const handler = Object.hasOwn(DISPUTE_DECISIONS, parsed.decision) ? DISPUTE_DECISIONS[parsed.decision] : undefined;
  if (!handler) throw new AppError(422, "validation_failed", { decision: "dispute_decision_invalid" });
  return transaction(async (trx) => {
    const at = now();
    const dispute = await trx
      .updateTable("disputes")
      .set({
        status: "decided",
        decision: parsed.decision,
        decision_reason: parsed.reason,
        decided_by: operator.id,
        decided_at: at,
        updated_at: at,
      })
      .where("id", "=", disputeId)
      .where("status", "=", "open")
      .returningAll()
      .executeTakeFirst();
    if (!dispute) {
      const exists = await trx.selectFrom("disputes").select("id").where("id", "=", disputeId).executeTakeFirst();
      throw exists ? new AppError(409, "dispute_already_decided") : new AppError(404, "not_found");
    }
    const contract = await trx
      .selectFrom("contracts")
      .selectAll()
      .where("id", "=", dispute.contract_id)
      .executeTakeFirstOrThrow();
    const outcome = await handler({ trx, operator, dispute, contract, reason: parsed.reason, input: parsed, at });
    const updated = await trx
      .updateTable("contracts")
      .set({ ...outcome.contract, disputed_at: null, events_count: sql<number>`events_count + 1`, updated_at: at })
      .where("id", "=", contract.id)
      .where("status", "=", contract.status)
      .where("disputed_at", "is not", null)
      .returning(["events_count", "status"])
      .executeTakeFirst();
    if (!updated) throw new AppError(409, "contract_changed");
    await addEvent(trx, contract.id, updated.events_count, {
      kind: "dispute_decided",
      author: "system",
      message: parsed.reason,
      created_at: at,
    });
    await notify(
      trx,
      [contract.merchant_id, contract.freelancer_id].map((user_id) => ({
        user_id,
        kind: "contract_dispute_decided" as const,
        application_id: contract.id,
        opportunity_id: contract.opportunity_id,
        // With money held, the amounts moved (the page, the notice and the e-mail say them).
        detail: { reason: parsed.reason, ...moneyOf(outcome) },
      })),
    );
    await recordAudit(
      trx,
      operatorActor(operator),
      {
        action: "dispute.decide",
        target_type: "dispute",
        target_id: dispute.id,
        reason: parsed.reason,
        before: { status: "open", contract_status: contract.status },
        after: { status: "decided", decision: parsed.decision, contract_status: updated.status, ...outcome.audit },
      },
      at,
    );
    return { dispute: toDisputeJson(dispute), contract_status: updated.status };
  });
}

// ---------------------------------------------------------------------------------------------
// The queue and one dispute

type PersonJson = ReturnType<typeof personJson>;

export type DisputeQueueItemJson = DisputeJson & {
  opportunity: { uuid: string; title: string };
  merchant: PersonJson;
  freelancer: PersonJson;
  contract_status: ContractRow["status"];
};

export type DisputeQueueJson = { data: DisputeQueueItemJson[]; meta: PageMeta; open_count: number };

function queueSelect(database: Kysely<Database>) {
  return database
    .selectFrom("disputes")
    .innerJoin("contracts", "contracts.id", "disputes.contract_id")
    .innerJoin("opportunities as o", "o.id", "contracts.opportunity_id")
    .innerJoin("users as m", "m.id", "contracts.merchant_id")
    .innerJoin("users as f", "f.id", "contracts.freelancer_id");
}

/** The disputes of one status (open by default: oldest first; decided: newest first). Three queries. */
export async function listDisputes(query: unknown): Promise<DisputeQueueJson> {
  const { status, page, per_page } = parseInput(disputeQueueQuerySchema, query, "query_invalid");
  const [rows, total, open] = await Promise.all([
    queueSelect(db)
      .selectAll("disputes")
      .select([
        "o.uuid as opportunity_uuid",
        "o.title as opportunity_title",
        "contracts.status as contract_status",
        "contracts.merchant_id",
        "contracts.freelancer_id",
        ...PEOPLE_COLUMNS,
      ])
      .where("disputes.status", "=", status)
      .orderBy("disputes.created_at", status === "open" ? "asc" : "desc")
      .orderBy("disputes.id")
      .limit(per_page)
      .offset(offsetOf(page, per_page))
      .execute(),
    countOf(status),
    countOf("open"),
  ]);
  return {
    data: rows.map((r) => ({
      ...toDisputeJson(r),
      opportunity: { uuid: r.opportunity_uuid, title: r.opportunity_title },
      merchant: personJson(r, "merchant"),
      freelancer: personJson(r, "freelancer"),
      contract_status: r.contract_status,
    })),
    meta: pageMeta(page, per_page, total),
    open_count: open,
  };
}

async function countOf(status: DisputeRow["status"]) {
  const row = await db
    .selectFrom("disputes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", status)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export type DisputeCaseJson = {
  dispute: DisputeJson & { decided_by: { id: string; name: string } | null };
  /** The contract's whole record: terms, deliveries and files, change requests, statements. */
  contract: ContractRecordJson;
  /** The conversation of the two sides, oldest first (hidden messages marked, with their text). */
  messages: { id: string; author: "merchant" | "freelancer"; body: string; hidden: boolean; created_at: string }[];
  /** The decisions the console offers (the split only for a contract with payments). */
  decisions: string[];
  /** With payments: the milestone whose money the decision moves (null when nothing is held). */
  held: { milestone_id: string; title: string; amount_cents: number; fee_bps: number } | null;
};

/** An open or decided dispute with everything the operator needs to decide it. */
export async function getDisputeCase(disputeId: string): Promise<DisputeCaseJson> {
  assertId(disputeId);
  const dispute = await db.selectFrom("disputes").selectAll().where("id", "=", disputeId).executeTakeFirst();
  if (!dispute) throw new AppError(404, "not_found");
  const [contract, messages, decider] = await Promise.all([
    getContractRecord(dispute.contract_id),
    db
      .selectFrom("messages")
      .select(["id", "author", "body", "hidden_at", "created_at"])
      .where("application_id", "=", dispute.contract_id)
      .orderBy("seq", "asc")
      .execute(),
    dispute.decided_by
      ? db
          .selectFrom("users")
          .select(["id", "email", "display_name", "full_name"])
          .where("id", "=", dispute.decided_by)
          .executeTakeFirst()
      : undefined,
  ]);
  const held = heldOf(contract, dispute.milestone_id);
  return {
    dispute: {
      ...toDisputeJson(dispute),
      decided_by: decider ? { id: decider.id, name: operatorActor(decider).name } : null,
    },
    contract,
    messages: messages.map((m) => ({
      id: m.id,
      author: m.author,
      body: m.body,
      hidden: m.hidden_at !== null,
      created_at: m.created_at,
    })),
    // A split needs money held to divide.
    decisions: decisionsFor(contract).filter((kind) => kind !== "split" || held),
    held,
  };
}

/** The held milestone the decision moves: the one being worked on, or an hourly contract's disputed week. */
function heldOf(contract: ContractRecordJson, disputed: string | null): DisputeCaseJson["held"] {
  if (contract.payments !== "escrow") return null;
  const m = contract.milestones.find(
    (x) => (x.status === "funded" || x.status === "delivered") && (contract.kind !== "hourly" || x.id === disputed),
  );
  return m ? { milestone_id: m.id, title: m.title, amount_cents: m.amount_cents, fee_bps: contract.fee_bps } : null;
}

/** A file of the disputed contract's record (deliveries, statements), for the operator. */
export async function getDisputeFile(disputeId: string, fileId: string) {
  assertId(disputeId);
  assertId(fileId);
  const dispute = await db.selectFrom("disputes").select("contract_id").where("id", "=", disputeId).executeTakeFirst();
  if (!dispute) throw new AppError(404, "not_found");
  return readContractFile(dispute.contract_id, fileId);
}
