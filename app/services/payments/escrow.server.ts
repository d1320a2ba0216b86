import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { ContractRow, Database, MilestoneRow, PixChargeRow } from "../../../db/schema";
import { feeOf } from "~/lib/fees";
import { enqueueNotas } from "../fiscal/notas.server";
import { AppError } from "../platform/errors.server";
import { account, post } from "./ledger.server";

// What the contract's moves do to a milestone's money, inside the move's transaction. Every
// change of a milestone repeats in its WHERE the state it was decided on: of two moves racing
// for one milestone (a release and a refund), the second updates nothing and answers 409.

const DAY_MS = 86_400_000;

type Contract = Pick<ContractRow, "id" | "merchant_id" | "freelancer_id" | "payments" | "fee_bps">;

/** The milestone being worked on: the first (by seq) neither settled nor proposed. */
export async function currentMilestone(trx: Kysely<Database>, contractId: string): Promise<MilestoneRow | undefined> {
  return trx
    .selectFrom("milestones")
    .selectAll()
    .where("contract_id", "=", contractId)
    .where("status", "in", ["awaiting_funding", "funded", "delivered"])
    .orderBy("seq")
    .limit(1)
    .executeTakeFirst();
}

/**
 * The milestone the merchant funds now: a fixed contract's current one; an hourly contract's
 * earliest week still waiting for its money (weeks are funded ahead, while the last is reviewed).
 */
export async function milestoneToFund(
  trx: Kysely<Database>,
  contract: Pick<ContractRow, "id" | "kind">,
): Promise<MilestoneRow | undefined> {
  if (contract.kind === "fixed") return currentMilestone(trx, contract.id);
  return trx
    .selectFrom("milestones")
    .selectAll()
    .where("contract_id", "=", contract.id)
    .where("status", "=", "awaiting_funding")
    .orderBy("seq")
    .limit(1)
    .executeTakeFirst();
}

/**
 * Whether the contract goes on after the milestone numbered `seq`: a later milestone is still to
 * be funded or already held (a monthly contract funds its next month while the last is reviewed),
 * or, for a monthly contract not ended, the next month is still to open (monthly.server.ts).
 */
export async function hasLaterMilestone(
  trx: Kysely<Database>,
  contract: Pick<ContractRow, "id" | "kind" | "paused_from">,
  seq: number,
): Promise<boolean> {
  if (contract.kind === "monthly" && contract.paused_from === null) return true;
  const next = await trx
    .selectFrom("milestones")
    .select("id")
    .where("contract_id", "=", contract.id)
    .where("status", "in", ["awaiting_funding", "funded"])
    .where("seq", ">", seq)
    .limit(1)
    .executeTakeFirst();
  return next !== undefined;
}

/** Moves the milestone from the state it was read in, or answers 409 when it moved meanwhile. */
export async function moveMilestone(
  trx: Kysely<Database>,
  milestone: Pick<MilestoneRow, "id" | "status">,
  set: Partial<MilestoneRow>,
  at: string,
) {
  const updated = await trx
    .updateTable("milestones")
    .set({ ...set, updated_at: at })
    .where("id", "=", milestone.id)
    .where("status", "=", milestone.status)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new AppError(409, "contract_changed");
}

/** The ledger transaction of a milestone's money leaving escrow (`kind`), between its contract's two sides. */
const escrowExit = (
  kind: "split" | "release" | "refund",
  contract: Contract,
  milestone: Pick<MilestoneRow, "id">,
  refundId: string | null,
) => ({
  kind,
  contract_id: contract.id,
  milestone_id: milestone.id,
  refund_id: refundId,
  merchant_id: contract.merchant_id,
  freelancer_id: contract.freelancer_id,
});

/**
 * Releases a delivered (or, by a dispute, funded) milestone: `releasedCents` of its escrow to the
 * freelancer, less the contract's frozen fee on that part only, and the rest back to the merchant
 * (a refund due). `keptCents` of that rest were passed on to a later week before (carryUnused,
 * an hourly contract's choice) and leave no refund. Without payments the milestone is only
 * marked released.
 */
export async function releaseMilestone(
  trx: Kysely<Database>,
  contract: Contract,
  milestone: MilestoneRow,
  at: string,
  releasedCents = milestone.amount_cents,
  keptCents = 0,
) {
  if (contract.payments === "off") {
    await moveMilestone(
      trx,
      milestone,
      { status: "released", released_cents: milestone.amount_cents, settled_at: at },
      at,
    );
    return;
  }
  const fee = feeOf(releasedCents, contract.fee_bps);
  const rest = milestone.amount_cents - releasedCents - keptCents;
  const status = releasedCents === 0 ? "refunded" : "released";
  await moveMilestone(
    trx,
    milestone,
    {
      status,
      released_cents: releasedCents,
      fee_cents: fee,
      refunded_cents: rest,
      carried_out_cents: keptCents,
      settled_at: at,
    },
    at,
  );
  // All of it passed on to the next week: nothing is left in escrow to move.
  if (releasedCents + rest === 0) return;
  const refundId = rest > 0 ? await insertRefund(trx, contract, milestone.id, rest, at) : null;
  await post(
    trx,
    escrowExit(rest > 0 ? "split" : "release", contract, milestone, refundId),
    [
      {
        account: account.escrow(milestone.id),
        user_id: contract.merchant_id,
        amount_cents: -(milestone.amount_cents - keptCents),
      },
      {
        account: account.available(contract.freelancer_id),
        user_id: contract.freelancer_id,
        amount_cents: releasedCents - fee,
      },
      { account: account.fees, user_id: null, amount_cents: fee },
      ...(refundId ? [{ account: account.refund(refundId), user_id: contract.merchant_id, amount_cents: rest }] : []),
    ],
    at,
  );
  // Its notas fiscais, issued in the background (fiscal/notas.server.ts): the fee's, the freelancer's own.
  await enqueueNotas(trx, contract, milestone, { releasedCents, feeCents: fee }, at);
}

/**
 * Passes `cents` of a settling week's unused money (still in its escrow) on to a later week
 * waiting for its money (an hourly contract whose merchant keeps it, hourly.server.ts): one
 * ledger transaction from escrow to escrow, no Pix out nor in. The later week holds it
 * (carried_in_cents) and its Pix is for the rest; holding all of it, it is funded now. Once per
 * week: the target's state and carried_in_cents = 0 are in the UPDATE's WHERE, so a payment or
 * another carry that came first leaves it alone (false: nothing moved, the money is refunded).
 */
export async function carryUnused(
  trx: Kysely<Database>,
  contract: Contract,
  from: Pick<MilestoneRow, "id">,
  to: Pick<MilestoneRow, "id" | "amount_cents">,
  cents: number,
  at: string,
): Promise<"funded" | "awaiting_funding" | null> {
  const full = cents >= to.amount_cents;
  const carried = await trx
    .updateTable("milestones")
    .set({ carried_in_cents: cents, updated_at: at, ...(full ? { status: "funded", funded_at: at } : {}) })
    .where("id", "=", to.id)
    .where("status", "=", "awaiting_funding")
    .where("carried_in_cents", "=", 0)
    .where("amount_cents", ">=", cents)
    .executeTakeFirst();
  if (Number(carried.numUpdatedRows) === 0) return null;
  await post(
    trx,
    {
      kind: "carry",
      contract_id: contract.id,
      milestone_id: from.id,
      merchant_id: contract.merchant_id,
      freelancer_id: contract.freelancer_id,
      memo: to.id,
    },
    [
      { account: account.escrow(from.id), user_id: contract.merchant_id, amount_cents: -cents },
      { account: account.escrow(to.id), user_id: contract.merchant_id, amount_cents: cents },
    ],
    at,
  );
  return full ? "funded" : "awaiting_funding";
}

/**
 * A week that held money kept from an earlier one is cancelled (it lapsed, or the contract ended
 * before it was paid): that money is owed back to the merchant, as any refund.
 */
export async function refundCarried(
  trx: Kysely<Database>,
  contract: Contract,
  milestone: Pick<MilestoneRow, "id" | "carried_in_cents">,
  at: string,
) {
  const cents = milestone.carried_in_cents;
  if (contract.payments !== "escrow" || cents === 0) return;
  await trx
    .updateTable("milestones")
    .set({ refunded_cents: cents, updated_at: at })
    .where("id", "=", milestone.id)
    .execute();
  await refundFromEscrow(trx, contract, milestone, cents, at);
}

/** `cents` of a milestone's escrow owed back to the merchant: a refund due (the operator pays it) and its ledger transaction. */
async function refundFromEscrow(
  trx: Kysely<Database>,
  contract: Contract,
  milestone: Pick<MilestoneRow, "id">,
  cents: number,
  at: string,
) {
  const refundId = await insertRefund(trx, contract, milestone.id, cents, at);
  await post(
    trx,
    escrowExit("refund", contract, milestone, refundId),
    [
      { account: account.escrow(milestone.id), user_id: contract.merchant_id, amount_cents: -cents },
      { account: account.refund(refundId), user_id: contract.merchant_id, amount_cents: cents },
    ],
    at,
  );
}

async function insertRefund(
  trx: Kysely<Database>,
  contract: Contract,
  milestoneId: string,
  amount: number,
  at: string,
  chargeId: string | null = null,
) {
  const id = randomUUID();
  await trx
    .insertInto("refunds")
    .values({
      id,
      user_id: contract.merchant_id,
      contract_id: contract.id,
      milestone_id: milestoneId,
      charge_id: chargeId,
      amount_cents: amount,
      status: "due",
      e2e_id: null,
      decided_by: null,
      decided_at: null,
      created_at: at,
    })
    .execute();
  return id;
}

/**
 * Ends a milestone with its contract: a funded one's escrow is owed back to the merchant (a refund
 * the operator pays), one never funded is just cancelled.
 */
export async function refundMilestone(trx: Kysely<Database>, contract: Contract, milestone: MilestoneRow, at: string) {
  const funded = milestone.status === "funded" || milestone.status === "delivered";
  if (contract.payments === "off" || !funded) {
    await moveMilestone(trx, milestone, { status: funded ? "refunded" : "cancelled", settled_at: at }, at);
    return;
  }
  await moveMilestone(
    trx,
    milestone,
    { status: "refunded", refunded_cents: milestone.amount_cents, settled_at: at },
    at,
  );
  await refundFromEscrow(trx, contract, milestone, milestone.amount_cents, at);
}

/**
 * A contract ends: every milestone not settled yet (proposed, awaiting funding) is cancelled, its
 * open charges withdrawn, and one still held beyond the milestone in hand (a monthly contract's
 * next month, funded ahead) is owed back to the merchant.
 */
export async function closeMilestones(trx: Kysely<Database>, contract: Contract, at: string) {
  await trx
    .updateTable("milestones")
    .set({ status: "cancelled", settled_at: at, updated_at: at })
    .where("contract_id", "=", contract.id)
    .where("status", "in", ["proposed", "awaiting_funding"])
    .execute();
  await trx
    .updateTable("pix_charges")
    .set({ status: "superseded" })
    .where("contract_id", "=", contract.id)
    .where("status", "=", "pending")
    .execute();
  const held = await trx
    .selectFrom("milestones")
    .selectAll()
    .where("contract_id", "=", contract.id)
    .where("status", "=", "funded")
    .execute();
  for (const milestone of held) await refundMilestone(trx, contract, milestone, at);
}

/** A payment that arrived for a milestone no longer waiting for it: the money is owed back at once. */
export async function latePayment(
  trx: Kysely<Database>,
  contract: Contract,
  milestoneId: string,
  chargeId: string,
  amount: number,
  at: string,
) {
  const refundId = await insertRefund(trx, contract, milestoneId, amount, at, chargeId);
  await post(
    trx,
    {
      kind: "late_payment",
      contract_id: contract.id,
      milestone_id: milestoneId,
      charge_id: chargeId,
      refund_id: refundId,
      merchant_id: contract.merchant_id,
      freelancer_id: contract.freelancer_id,
    },
    [
      { account: account.external(contract.merchant_id), user_id: contract.merchant_id, amount_cents: -amount },
      { account: account.refund(refundId), user_id: contract.merchant_id, amount_cents: amount },
    ],
    at,
  );
}

/**
 * What the merchant still pays for a milestone waiting for its money: its amount, less what it
 * already holds kept from an earlier week (carryUnused).
 */
export const dueOf = (m: Pick<MilestoneRow, "amount_cents" | "carried_in_cents">) =>
  m.amount_cents - m.carried_in_cents;

/**
 * The charge's money arrived while the milestone waited for it: held in escrow from now on.
 * `paidCents` may pass what was due: a charge for the whole week issued before part of it was
 * kept from the week before (carryUnused); the difference is owed back at once, in the same
 * ledger transaction.
 */
export async function fundMilestone(
  trx: Kysely<Database>,
  contract: Contract,
  milestone: MilestoneRow,
  chargeId: string,
  at: string,
  paidCents = dueOf(milestone),
) {
  const due = dueOf(milestone);
  await moveMilestone(trx, milestone, { status: "funded", funded_at: at }, at);
  // An hourly contract's week is open for entries once its money is held.
  await trx
    .updateTable("contract_weeks")
    .set({ status: "open", updated_at: at })
    .where("milestone_id", "=", milestone.id)
    .where("status", "=", "awaiting_funding")
    .execute();
  // The milestone's work starts now: its delivery date counts from here, not from the hire.
  await trx
    .updateTable("contracts")
    .set({ due_at: new Date(Date.parse(at) + milestone.days * DAY_MS).toISOString(), overdue_at: null })
    .where("id", "=", contract.id)
    .execute();
  const over = paidCents - due;
  const refundId = over > 0 ? await insertRefund(trx, contract, milestone.id, over, at, chargeId) : null;
  await post(
    trx,
    {
      kind: "charge_received",
      contract_id: contract.id,
      milestone_id: milestone.id,
      charge_id: chargeId,
      refund_id: refundId,
      merchant_id: contract.merchant_id,
      freelancer_id: contract.freelancer_id,
    },
    [
      { account: account.external(contract.merchant_id), user_id: contract.merchant_id, amount_cents: -paidCents },
      { account: account.escrow(milestone.id), user_id: contract.merchant_id, amount_cents: due },
      ...(refundId ? [{ account: account.refund(refundId), user_id: contract.merchant_id, amount_cents: over }] : []),
    ],
    at,
  );
}

/** A pending charge still stands: within its 24 hours, or said paid by the payer ("Já paguei"). */
export const chargeStands = (c: Pick<PixChargeRow, "status" | "expires_at" | "claimed_at">, at: string) =>
  c.status === "pending" && (c.expires_at > at || c.claimed_at !== null);
