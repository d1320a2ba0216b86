import { sql, type Kysely } from "kysely";
import { db, transaction } from "../../../db";
import { newMilestone } from "../../../db/contracts";
import type { ContractParty, ContractRow, Database, MilestoneRow, UserRow } from "../../../db/schema";
import { feeOf } from "~/lib/fees";
import { MAX_MILESTONES, milestoneInputSchema, splitInputSchema } from "~/lib/payments-schemas";
import { AppError, parseInput } from "../platform/errors.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { assertId, now } from "../platform/records.server";
import { notify } from "../messaging/notifications.server";
import { publishContractMove } from "../platform/events.server";
import { insertEvent } from "../contracts/timeline.server";
import { chargeStands } from "./escrow.server";

// Milestones (docs/payments.md): a contract's price in 1 to 20 parts, worked on and paid in
// order. At the hire there is one with the whole price; before anything is funded the merchant
// may split it; later either side may propose one more, which the other accepts or declines.
// Milestones are a feature of contracts with payments (escrow); without, the contract keeps
// its single milestone.

export type MilestoneJson = {
  id: string;
  seq: number;
  title: string;
  amount_cents: number;
  days: number;
  status: MilestoneRow["status"];
  proposed_by: ContractParty | null;
  deliveries_count: number;
  /** The fee on the amount at the contract's frozen rate, and what the freelancer receives. */
  fee_cents: number;
  net_cents: number;
  released_cents: number;
  refunded_cents: number;
  /**
   * An hourly week's money kept from an earlier week (held before its Pix), what it passed on to
   * a later one when settled, and what its Pix is for (amount_cents less carried_in_cents).
   */
  carried_in_cents: number;
  carried_out_cents: number;
  due_cents: number;
  funded_at: string | null;
  settled_at: string | null;
};

function toJson(m: MilestoneRow, feeBps: number): MilestoneJson {
  // Settled: what was released and its fee. Cancelled (a declined proposal, a milestone dropped
  // with its contract or replaced by a split): nothing to receive, no fee.
  const settled = m.status === "released" || m.status === "refunded" || m.status === "cancelled";
  const fee = settled ? m.fee_cents : feeOf(m.amount_cents, feeBps);
  return {
    id: m.id,
    seq: m.seq,
    title: m.title,
    amount_cents: m.amount_cents,
    days: m.days,
    status: m.status,
    proposed_by: m.proposed_by,
    deliveries_count: m.deliveries_count,
    fee_cents: fee,
    net_cents: (settled ? m.released_cents : m.amount_cents) - fee,
    released_cents: m.released_cents,
    refunded_cents: m.refunded_cents,
    carried_in_cents: m.carried_in_cents,
    carried_out_cents: m.carried_out_cents,
    due_cents: m.amount_cents - m.carried_in_cents,
    funded_at: m.funded_at,
    settled_at: m.settled_at,
  };
}

export async function milestonesOf(contract: Pick<ContractRow, "id" | "fee_bps">): Promise<MilestoneJson[]> {
  const rows = await db
    .selectFrom("milestones")
    .selectAll()
    .where("contract_id", "=", contract.id)
    .orderBy("seq")
    .execute();
  return rows.map((m) => toJson(m, contract.fee_bps));
}

function partyOf(user: Pick<UserRow, "id">, row: ContractRow): ContractParty | null {
  if (row.freelancer_id === user.id) return "freelancer";
  if (row.merchant_id === user.id) return "merchant";
  return null;
}

/** The contract for a milestone move by one of its sides: 404 for anyone else, 409 without payments or once ended. */
async function contractFor(trx: Kysely<Database>, user: UserRow, id: string) {
  assertId(id);
  const row = await trx.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirst();
  const party = row ? partyOf(user, row) : null;
  if (!row || !party) throw new AppError(404, "not_found");
  if (row.payments !== "escrow") throw new AppError(409, "milestones_need_payments");
  // An hourly (monthly) contract's milestones are its weeks (months), never split or proposed.
  if (row.kind !== "fixed") throw new AppError(409, row.kind === "hourly" ? "contract_hourly" : "contract_monthly");
  if (row.status !== "in_progress" && row.status !== "delivered")
    throw new AppError(409, "contract_action_unavailable");
  // A dispute freezes every move of the contract, its milestones included, until it is decided.
  if (row.disputed_at !== null) throw new AppError(409, "contract_disputed");
  return { row, party };
}

/**
 * Records a timeline event and bumps the contract's counters, only while the contract is in the
 * state read (else 409): the contract's row is what two racing milestone moves meet on.
 */
async function touchContract(
  trx: Kysely<Database>,
  row: ContractRow,
  at: string,
  event: Omit<Parameters<typeof addEvent>[3], "created_at">,
  set: Partial<Pick<ContractRow, "price_cents" | "milestones_count">> = {},
) {
  const updated = await trx
    .updateTable("contracts")
    .set({ ...set, events_count: sql<number>`events_count + 1`, updated_at: at })
    .where("id", "=", row.id)
    .where("status", "=", row.status)
    .where("events_count", "=", row.events_count)
    .where("disputed_at", "is", null)
    .returning("events_count")
    .executeTakeFirst();
  if (!updated) throw new AppError(409, "contract_changed");
  await addEvent(trx, row.id, updated.events_count, { ...event, created_at: at });
}

async function addEvent(
  trx: Kysely<Database>,
  contractId: string,
  seq: number,
  event: {
    kind: "milestones_split" | "milestone_proposed" | "milestone_added" | "milestone_declined";
    author: ContractParty;
    message: string | null;
    /** The milestone's amount, kept on the line as it was then. */
    amount_cents?: number | null;
    created_at: string;
  },
) {
  await insertEvent(trx, contractId, seq, event);
  await publishContractMove(trx, contractId);
}

/**
 * The merchant splits the price into 1 to 20 milestones before anything is funded or delivered:
 * their amounts must add up to the contract's price. Replaces the milestones there were. A Pix
 * charge issued for one of them is never lost with it (docs/payments.md, "Etapas"): while one is
 * valid the split is refused (409); a milestone with an expired one is kept, cancelled, so that a
 * late payment of that charge still finds it and becomes a refund due.
 */
export async function splitMilestones(merchant: UserRow, id: string, input: unknown): Promise<MilestoneJson[]> {
  await consumeWrite(merchant.id);
  const { milestones } = parseInput(splitInputSchema, input);
  const feeBps = await transaction(async (trx) => {
    const { row, party } = await contractFor(trx, merchant, id);
    if (party !== "merchant") throw new AppError(403, "forbidden_role");
    const existing = await trx.selectFrom("milestones").selectAll().where("contract_id", "=", id).execute();
    const live = existing.filter((m) => m.status !== "cancelled");
    if (row.status !== "in_progress" || row.deliveries_count > 0 || live.some((m) => m.status !== "awaiting_funding")) {
      throw new AppError(409, "milestones_locked");
    }
    const total = milestones.reduce((sum, m) => sum + m.amount_cents, 0);
    if (total !== row.price_cents) {
      throw new AppError(
        422,
        "milestones_total_mismatch",
        { milestones: "milestones_total_mismatch" },
        {
          total: row.price_cents,
        },
      );
    }
    const at = now();
    await touchContract(
      trx,
      row,
      at,
      { kind: "milestones_split", author: "merchant", message: null },
      {
        milestones_count: milestones.length,
      },
    );
    // The milestones replaced, locked first: a charge being issued for one of them (issueCharge
    // updates its milestone's row) either committed before, and is seen below, or waits and
    // then finds its milestone gone (409).
    const replaced = await trx
      .updateTable("milestones")
      .set({ updated_at: at })
      .where("contract_id", "=", id)
      .where("status", "=", "awaiting_funding")
      .returning("id")
      .execute();
    if (replaced.length !== live.length) throw new AppError(409, "contract_changed");
    const charges = replaced.length
      ? await trx
          .selectFrom("pix_charges")
          .select(["milestone_id", "status", "expires_at", "claimed_at"])
          .where(
            "milestone_id",
            "in",
            replaced.map((m) => m.id),
          )
          .execute()
      : [];
    if (charges.some((c) => chargeStands(c, at))) {
      throw new AppError(409, "milestones_charge_open");
    }
    const charged = new Set(charges.map((c) => c.milestone_id));
    const kept = replaced.filter((m) => charged.has(m.id)).map((m) => m.id);
    const dropped = replaced.filter((m) => !charged.has(m.id)).map((m) => m.id);
    if (kept.length) {
      await trx
        .updateTable("milestones")
        .set({ status: "cancelled", settled_at: at, updated_at: at })
        .where("id", "in", kept)
        .execute();
    }
    if (dropped.length) await trx.deleteFrom("milestones").where("id", "in", dropped).execute();
    // Numbered after every milestone kept on record (cancelled ones included).
    const after = Math.max(
      0,
      ...existing.filter((m) => m.status === "cancelled" || charged.has(m.id)).map((m) => m.seq),
    );
    await trx
      .insertInto("milestones")
      .values(
        milestones.map((m, i) =>
          newMilestone(id, { seq: after + i + 1, ...m, status: "awaiting_funding", proposed_by: null }, at),
        ),
      )
      .execute();
    return row.fee_bps;
  });
  return milestonesOf({ id, fee_bps: feeBps });
}

/** Either side proposes one more milestone (title, amount, days); one proposal waits at a time. */
export async function proposeMilestone(user: UserRow, id: string, input: unknown): Promise<MilestoneJson> {
  await consumeWrite(user.id);
  const data = parseInput(milestoneInputSchema, input);
  const { milestone, feeBps } = await transaction(async (trx) => {
    const { row, party } = await contractFor(trx, user, id);
    const existing = await trx
      .selectFrom("milestones")
      .select(["seq", "status"])
      .where("contract_id", "=", id)
      .orderBy("seq", "desc")
      .execute();
    if (existing.some((m) => m.status === "proposed")) throw new AppError(409, "milestone_proposal_pending");
    if (row.milestones_count >= MAX_MILESTONES) throw new AppError(409, "milestones_too_many");
    const at = now();
    await touchContract(trx, row, at, {
      kind: "milestone_proposed",
      author: party,
      message: data.title,
      amount_cents: data.amount_cents,
    });
    const milestone = newMilestone(
      id,
      {
        seq: (existing[0]?.seq ?? 0) + 1,
        title: data.title,
        amount_cents: data.amount_cents,
        days: data.days,
        status: "proposed",
        proposed_by: party,
      },
      at,
    );
    await trx.insertInto("milestones").values(milestone).execute();
    await notify(trx, {
      user_id: party === "merchant" ? row.freelancer_id : row.merchant_id,
      kind: "milestone_proposed",
      application_id: id,
      opportunity_id: row.opportunity_id,
    });
    return { milestone, feeBps: row.fee_bps };
  });
  return toJson(milestone, feeBps);
}

/**
 * The other side answers a proposed milestone: accepted, it joins the contract (its price grows
 * by the amount) waiting for its funding; declined, it is dropped.
 */
export async function answerMilestone(
  user: UserRow,
  id: string,
  milestoneId: string,
  accept: boolean,
): Promise<MilestoneJson[]> {
  await consumeWrite(user.id);
  assertId(milestoneId);
  const feeBps = await transaction(async (trx) => {
    const { row, party } = await contractFor(trx, user, id);
    const proposal = await trx
      .selectFrom("milestones")
      .selectAll()
      .where("id", "=", milestoneId)
      .where("contract_id", "=", id)
      .executeTakeFirst();
    if (!proposal) throw new AppError(404, "not_found");
    if (proposal.status !== "proposed" || proposal.proposed_by === party) {
      throw new AppError(409, "contract_action_unavailable");
    }
    const at = now();
    await touchContract(
      trx,
      row,
      at,
      {
        kind: accept ? "milestone_added" : "milestone_declined",
        author: party,
        message: proposal.title,
        amount_cents: proposal.amount_cents,
      },
      accept
        ? { price_cents: row.price_cents + proposal.amount_cents, milestones_count: row.milestones_count + 1 }
        : {},
    );
    const moved = await trx
      .updateTable("milestones")
      .set(
        accept
          ? { status: "awaiting_funding", updated_at: at }
          : { status: "cancelled", settled_at: at, updated_at: at },
      )
      .where("id", "=", milestoneId)
      .where("status", "=", "proposed")
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) throw new AppError(409, "contract_changed");
    return row.fee_bps;
  });
  return milestonesOf({ id, fee_bps: feeBps });
}
