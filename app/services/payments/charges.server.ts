import { randomBytes, randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import QRCode from "qrcode";
import { db, transaction } from "../../../db";
import { isUniqueViolation, lockUser } from "../../../db/dialect";
import type { Database, PixChargeRow, UserRow } from "../../../db/schema";
import { confirmChargeSchema } from "~/lib/payments-schemas";
import { AppError, parseInput } from "../platform/errors.server";
import { assertFundingIdentity } from "../accounts/identity.server";
import { assertFundingTaker } from "../fiscal/issuers.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { assertId, now } from "../platform/records.server";
import { notify } from "../messaging/notifications.server";
import { assertAllowed } from "../contracts/contracts.server";
import { chargeStands, dueOf, fundMilestone, latePayment, milestoneToFund } from "./escrow.server";
import { providerNamed, type Provider } from "./providers.server";
import type { InTransaction } from "./ledger.server";
import { publishContractMove } from "../platform/events.server";
import { logger } from "../platform/log.server";

// Pix charges (docs/payments.md): funding a milestone issues a charge for its amount, a BR Code
// ("copia e cola") and its QR image, with a txid of its own, valid for 24 hours. While a valid
// one is pending the same charge is shown again; once expired, a new one is issued. A charge is
// paid once: the operator's confirmation and the provider's webhook (even delivered twice, or
// together) race on one conditional UPDATE of the charge, and only its winner moves money.

export const CHARGE_HOURS = 24;

export type ChargeJson = {
  id: string;
  milestone_id: string;
  provider: PixChargeRow["provider"];
  txid: string;
  amount_cents: number;
  status: PixChargeRow["status"];
  br_code: string;
  /** The QR code of br_code, an SVG image as a data: URL. */
  qr_code: string;
  expires_at: string;
  paid_at: string | null;
  e2e_id: string | null;
  created_at: string;
  /** "Já paguei": when the payer said it was paid (manual provider), waiting for the operator. */
  claimed_at: string | null;
};

async function toJson(c: PixChargeRow): Promise<ChargeJson> {
  const svg = await QRCode.toString(c.br_code, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return {
    id: c.id,
    milestone_id: c.milestone_id,
    provider: c.provider,
    txid: c.txid,
    amount_cents: c.amount_cents,
    status: c.status,
    br_code: c.br_code,
    qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
    expires_at: c.expires_at,
    paid_at: c.paid_at,
    e2e_id: c.e2e_id,
    created_at: c.created_at,
    claimed_at: c.claimed_at,
  };
}

/** A txid as the BR Code takes it: 25 letters and digits. */
const newTxid = () => `FRL${randomBytes(11).toString("hex").toUpperCase()}`;

async function contractOf(user: UserRow, id: string) {
  assertId(id);
  const row = await db.selectFrom("contracts").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row || (row.merchant_id !== user.id && row.freelancer_id !== user.id)) throw new AppError(404, "not_found");
  return row;
}

/**
 * Pending charges past their 24 hours are expired (at every read, so no job is needed); one the
 * payer said was paid ("Já paguei") waits for the operator instead, however long it takes.
 */
async function expireCharges(trx: Kysely<Database>, milestoneId: string, at: string) {
  await trx
    .updateTable("pix_charges")
    .set({ status: "expired" })
    .where("milestone_id", "=", milestoneId)
    .where("status", "=", "pending")
    .where("expires_at", "<=", at)
    .where("claimed_at", "is", null)
    .execute();
}

/** The milestone's charge waiting for payment, if a valid one was issued (a Pix Automático charge is not shown). */
async function pendingCharge(trx: Kysely<Database>, milestoneId: string) {
  return trx
    .selectFrom("pix_charges")
    .selectAll()
    .where("milestone_id", "=", milestoneId)
    .where("status", "=", "pending")
    .where("recurrence_id", "is", null)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** The charge of the milestone being worked on, for the contract's two sides (null when none is waiting). */
export async function getCurrentCharge(user: UserRow, id: string): Promise<ChargeJson | null> {
  const contract = await contractOf(user, id);
  if (contract.payments !== "escrow") return null;
  const milestone = await milestoneToFund(db, contract);
  if (!milestone || milestone.status !== "awaiting_funding") return null;
  const charge = await pendingCharge(db, milestone.id);
  // A charge for more than is due now (issued before part of the week was kept) is not shown.
  return charge && chargeStands(charge, now()) && charge.amount_cents === dueOf(milestone) ? toJson(charge) : null;
}

/**
 * The merchant funds the milestone being worked on: its pending charge if one is still valid
 * (`created: false`), else a new one (24 h, a new txid). `input`: the merchant's CPF/CNPJ and
 * name for the freelancer's nota, when asked for (assertFundingTaker).
 */
export async function issueCharge(
  merchant: UserRow,
  id: string,
  provider: Provider = providerNamed(),
  input: unknown = {},
): Promise<{ charge: ChargeJson; created: boolean }> {
  await consumeWrite(merchant.id);
  const contract = await contractOf(merchant, id);
  const milestone = await milestoneToFund(db, contract);
  const party = contract.merchant_id === merchant.id ? "merchant" : "freelancer";
  assertAllowed("fund", { ...contract, milestone: milestone ?? null }, party);
  const at = now();
  // A month whose Pix Automático charge is with the merchant's bank is not paid twice.
  const recurring = await db
    .selectFrom("pix_charges")
    .select("id")
    .where("milestone_id", "=", milestone!.id)
    .where("status", "=", "pending")
    .where("recurrence_id", "is not", null)
    .executeTakeFirst();
  if (recurring) throw new AppError(409, "month_in_pix_automatico");
  // What is due: the week's amount less what it holds kept from the week before (escrow.server.ts).
  const due = dueOf(milestone!);
  const existing = await pendingCharge(db, milestone!.id);
  if (existing && chargeStands(existing, at) && existing.amount_cents === due) {
    return { charge: await toJson(existing), created: false };
  }
  // Past IDENTITY_REQUIRED_ABOVE_CENTS in 30 days, the merchant says who they are first (asked
  // here before the provider is, and again in the transaction that records the charge).
  await assertFundingIdentity(db, contract.merchant_id, due, milestone!.id, at);
  // The freelancer issues their own notas: who the merchant is, for them (docs/payments.md).
  await assertFundingTaker(contract, input);

  const chargeId = randomUUID();
  const txid = newTxid();
  const expiresAt = new Date(Date.parse(at) + CHARGE_HOURS * 3_600_000).toISOString();
  // The provider is asked before the transaction, which may be run again (PostgreSQL retries).
  let issued: Awaited<ReturnType<Provider["createCharge"]>>;
  try {
    issued = await provider.createCharge({
      chargeId,
      txid,
      amountCents: due,
      description: `Freela: ${milestone!.title}`.slice(0, 120),
      payerEmail: merchant.email,
      expiresAt,
    });
  } catch (error) {
    // The provider is down or refused: nothing was stored, the merchant may try again.
    logger.error(`[payments] ${provider.name} did not issue the charge: ${(error as Error).message}`);
    throw new AppError(503, "provider_unavailable", undefined, undefined, { "Retry-After": "30" });
  }
  const row: PixChargeRow = {
    id: chargeId,
    milestone_id: milestone!.id,
    contract_id: id,
    merchant_id: contract.merchant_id,
    provider: provider.name,
    txid,
    provider_payment_id: issued.provider_payment_id,
    amount_cents: due,
    br_code: issued.br_code,
    status: "pending",
    e2e_id: null,
    expires_at: expiresAt,
    paid_at: null,
    confirmed_by: null,
    created_at: at,
    claimed_at: null,
    claimed_by: null,
    recurrence_id: null,
  };
  await transaction(async (trx) => {
    // The merchant's charges are counted one request at a time: a burst cannot pass the threshold.
    await lockUser(trx, contract.merchant_id);
    await assertFundingIdentity(trx, contract.merchant_id, due, milestone!.id, at);
    await expireCharges(trx, milestone!.id, at);
    // Still waiting for its funding, as read (a cancellation or a split in between answers 409).
    // An UPDATE, not a read: it locks the milestone's row until this charge is committed, so a
    // split replacing the milestone waits and then sees the charge (it never drops it unseen).
    const still = await trx
      .updateTable("milestones")
      .set({ updated_at: at })
      .where("id", "=", milestone!.id)
      .where("status", "=", "awaiting_funding")
      .where("amount_cents", "=", milestone!.amount_cents)
      .where("carried_in_cents", "=", milestone!.carried_in_cents)
      .executeTakeFirst();
    if (Number(still.numUpdatedRows) === 0) throw new AppError(409, "contract_changed");
    // One pending charge per milestone: one issued meanwhile is superseded by this one.
    await trx
      .updateTable("pix_charges")
      .set({ status: "superseded" })
      .where("milestone_id", "=", milestone!.id)
      .where("status", "=", "pending")
      .where("recurrence_id", "is", null)
      .execute();
    await trx.insertInto("pix_charges").values(row).execute();
  });
  return { charge: await toJson(row), created: true };
}

/**
 * "Já paguei": the payer of a manual Pix charge says it was paid. Recorded once (who, when) on
 * the charge, only by the charge's merchant and only while it waits for the operator (pending,
 * not expired); the UPDATE's WHERE holds those rules, so of two at once one records and the other
 * finds it recorded. Saying it again answers the same (`claimed: false`), nothing moves: the
 * operator still confirms the receipt with the Pix's end-to-end id.
 */
export async function claimPaid(
  merchant: UserRow,
  id: string,
  chargeId: string,
): Promise<{ charge: ChargeJson; claimed: boolean }> {
  assertId(chargeId);
  await consumeWrite(merchant.id);
  const contract = await contractOf(merchant, id);
  if (contract.merchant_id !== merchant.id) throw new AppError(403, "forbidden_role");
  const charge = await db
    .selectFrom("pix_charges")
    .selectAll()
    .where("id", "=", chargeId)
    .where("contract_id", "=", id)
    .executeTakeFirst();
  if (!charge) throw new AppError(404, "not_found");
  if (charge.provider !== "manual") throw new AppError(409, "charge_not_manual");
  const at = now();
  const claimed = await db
    .updateTable("pix_charges")
    .set({ claimed_at: at, claimed_by: merchant.id })
    .where("id", "=", chargeId)
    .where("merchant_id", "=", merchant.id)
    .where("status", "=", "pending")
    .where("expires_at", ">", at)
    .where("claimed_at", "is", null)
    .executeTakeFirst();
  const row = await db.selectFrom("pix_charges").selectAll().where("id", "=", chargeId).executeTakeFirstOrThrow();
  if (Number(claimed.numUpdatedRows) === 0 && !(row.status === "pending" && row.claimed_at)) {
    // Paid already, expired or replaced: nothing waits for the operator any more.
    throw new AppError(409, row.status === "paid" ? "charge_already_paid" : "charge_not_pending");
  }
  return { charge: await toJson(row), claimed: Number(claimed.numUpdatedRows) === 1 };
}

export type Settlement = "funded" | "late" | "already_paid";

/**
 * Marks the charge paid (once: the UPDATE's WHERE lets one caller through) and moves the money:
 * into the milestone's escrow while it waits for it, else owed back to the merchant at once.
 * Runs inside the caller's transaction.
 */
export async function settleCharge(
  trx: Kysely<Database>,
  charge: Pick<PixChargeRow, "id" | "contract_id" | "milestone_id" | "amount_cents">,
  payment: { e2e_id: string | null; by: string },
  at: string,
): Promise<Settlement> {
  const paid = await trx
    .updateTable("pix_charges")
    .set({ status: "paid", e2e_id: payment.e2e_id, paid_at: at, confirmed_by: payment.by })
    .where("id", "=", charge.id)
    .where("status", "!=", "paid")
    .executeTakeFirst();
  if (Number(paid.numUpdatedRows) === 0) return "already_paid";
  // The contract's row first, as every move of the contract: a cancellation racing this payment
  // has either ended the milestone (the money goes back) or waits for this one.
  const contract = await trx
    .updateTable("contracts")
    .set({ events_count: sql<number>`events_count + 1`, updated_at: at })
    .where("id", "=", charge.contract_id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const milestone = await trx
    .selectFrom("milestones")
    .selectAll()
    .where("id", "=", charge.milestone_id)
    .executeTakeFirstOrThrow();
  // A monthly contract's next month is funded while the last one is delivered, under review. An
  // hourly week that holds money kept from the week before waits for the rest (dueOf), or takes
  // a charge for the whole week issued before that: it is funded and the difference owed back.
  const waiting =
    milestone.status === "awaiting_funding" &&
    (charge.amount_cents === dueOf(milestone) ||
      (milestone.carried_in_cents > 0 && charge.amount_cents === milestone.amount_cents)) &&
    (contract.status === "in_progress" || contract.status === "delivered");
  if (waiting) await fundMilestone(trx, contract, milestone, charge.id, at, charge.amount_cents);
  else await latePayment(trx, contract, milestone.id, charge.id, charge.amount_cents, at);
  await trx
    .insertInto("contract_events")
    .values({
      id: randomUUID(),
      contract_id: contract.id,
      seq: contract.events_count,
      kind: "milestone_funded",
      author: "system",
      message: waiting ? milestone.title : null,
      amount_cents: charge.amount_cents,
      created_at: at,
    })
    .execute();
  await publishContractMove(trx, contract.id);
  if (waiting) {
    await notify(
      trx,
      [contract.freelancer_id, contract.merchant_id].map((user_id) => ({
        user_id,
        kind: "milestone_funded" as const,
        application_id: contract.id,
        opportunity_id: contract.opportunity_id,
      })),
    );
  }
  return waiting ? "funded" : "late";
}

/**
 * A provider's notice that a charge was paid (Mercado Pago's webhook, a Pix Automático charge):
 * the notice recorded in payment_events and the charge settled in one transaction. The same
 * notice delivered twice at once, or a payment the operator recorded by hand first (its
 * end-to-end id), is a duplicate.
 */
export async function settleNotifiedCharge(
  charge: Pick<PixChargeRow, "id" | "contract_id" | "milestone_id" | "amount_cents">,
  notice: { provider: string; eventId: string; detail: string; e2e: string | null },
): Promise<{ outcome: "processed"; settlement: Settlement } | { outcome: "duplicate" }> {
  try {
    const settlement = await transaction(async (trx) => {
      await trx
        .insertInto("payment_events")
        .values({
          id: randomUUID(),
          provider: notice.provider,
          event_id: notice.eventId,
          outcome: "processed",
          detail: notice.detail,
          created_at: now(),
        })
        .execute();
      return settleCharge(trx, charge, { e2e_id: notice.e2e, by: notice.provider }, now());
    });
    return { outcome: "processed", settlement };
  } catch (error) {
    if (isUniqueViolation(error, "payment_events") || isUniqueViolation(error, "pix_charges")) {
      return { outcome: "duplicate" };
    }
    throw error;
  }
}

/**
 * The operator confirms a receipt of the manual provider: the Pix's end-to-end id and the amount
 * received, which must be the charge's. A charge already paid (by another confirmation or the
 * webhook), or another provider's (its webhook confirms it), answers 409, and nothing is credited
 * twice. A charge whose milestone no longer waits for it (cancelled, replaced by a split, funded
 * by another charge) is still confirmed: the money becomes a refund due.
 */
export async function confirmReceipt(
  operator: Pick<UserRow, "id">,
  chargeId: string,
  input: unknown,
  within?: InTransaction<{ charge: PixChargeRow; settlement: Exclude<Settlement, "already_paid">; e2e_id: string }>,
): Promise<{ charge: ChargeJson; settlement: Settlement }> {
  assertId(chargeId);
  const { e2e_id, amount_cents } = parseInput(confirmChargeSchema, input);
  const charge = await db.selectFrom("pix_charges").selectAll().where("id", "=", chargeId).executeTakeFirst();
  if (!charge) throw new AppError(404, "not_found");
  // Only the manual provider's Pix are confirmed by hand; the others by their provider's webhook.
  if (charge.provider !== "manual") throw new AppError(409, "charge_not_manual");
  if (amount_cents !== charge.amount_cents) {
    throw new AppError(422, "receipt_amount_mismatch", { amount_cents: "receipt_amount_mismatch" });
  }
  let settlement: Settlement;
  try {
    settlement = await transaction(async (trx) => {
      const at = now();
      const settled = await settleCharge(trx, charge, { e2e_id, by: operator.id }, at);
      if (settled !== "already_paid") await within?.(trx, { charge, settlement: settled, e2e_id }, at);
      return settled;
    });
  } catch (error) {
    if (isUniqueViolation(error, "pix_charges")) throw new AppError(409, "e2e_id_used");
    throw error;
  }
  if (settlement === "already_paid") throw new AppError(409, "charge_already_paid");
  const row = await db.selectFrom("pix_charges").selectAll().where("id", "=", chargeId).executeTakeFirstOrThrow();
  return { charge: await toJson(row), settlement };
}

/** Charges for the operator's console: waiting ones first (manual confirmations), newest first. */
export async function listCharges(status?: PixChargeRow["status"]) {
  const rows = await db
    .selectFrom("pix_charges")
    .selectAll()
    .$if(status !== undefined, (q) => q.where("status", "=", status!))
    .orderBy("created_at", "desc")
    .limit(200)
    .execute();
  return rows;
}
