import { sql, type Kysely, type SelectQueryBuilder } from "kysely";
import { db } from "../../../db";
import type { Database, UserRow } from "../../../db/schema";
import { confirmReceipt } from "../payments/charges.server";
import { markPayoutFailed, markPayoutPaid, recordRefund } from "../payments/payouts.server";
import { displayNameOf } from "../accounts/users.server";
import type { InTransaction } from "../payments/ledger.server";
import { operatorActor, recordAudit, type AuditEntry } from "./audit.server";

// The operator's payments desk (/admin/payments and /api/admin/payments): the three queues of
// money that waits for a person — Pix receipts of the manual provider to confirm, payouts to send,
// refunds to pay back — and the moves on them. Each move is the payments' own service (its
// precondition in the UPDATE's WHERE: of two operators, one wins and the other gets 409) with the
// audit log's row written in the same database transaction.

/** How many items of each queue one page shows (oldest first: the longest waiting on top). */
export const PAYMENT_QUEUE_LIMIT = 100;

type Person = { id: string; name: string; email: string };

export type ReceiptQueueItem = {
  id: string;
  txid: string;
  amount_cents: number;
  created_at: string;
  expires_at: string;
  /** "Já paguei": when the payer said it was paid (null until then). */
  claimed_at: string | null;
  contract: { id: string; title: string };
  merchant: Person;
};

export type PayoutQueueItem = {
  id: string;
  amount_cents: number;
  created_at: string;
  key_type: string;
  pix_key: string;
  holder_name: string;
  holder_document: string;
  freelancer: Person;
  /**
   * The holder check before paying (docs/payments.md, "Repasses"): `key_is_document` a CPF/CNPJ
   * key equal to the verified document; `check_at_bank` an e-mail, phone or random key whose
   * holder the operator confirms at the bank is `verified_document`; `mismatch` the verified
   * identity is not (or no longer) the key's holder: do not pay.
   */
  holder_check: "key_is_document" | "check_at_bank" | "mismatch";
  verified_document: string | null;
  verified_name: string | null;
};

export type RefundQueueItem = {
  id: string;
  amount_cents: number;
  created_at: string;
  /** The end-to-end id of the Pix the money came in with (a Pix refund is made against it). */
  charge_e2e_id: string | null;
  contract: { id: string; title: string };
  merchant: Person;
};

export type PaymentQueues = {
  receipts: ReceiptQueueItem[];
  payouts: PayoutQueueItem[];
  refunds: RefundQueueItem[];
};

const person = (r: { user_id: string; email: string; display_name: string | null; full_name: string }): Person => ({
  id: r.user_id,
  name: displayNameOf(r),
  email: r.email,
});

/** The account a queue's item is about (joined as `u`), in the columns `person` reads. */
const PERSON_COLUMNS = ["u.id as user_id", "u.email", "u.display_name", "u.full_name"] as const;

/** A queue (its table aliased `alias`): the rows in `status`, the longest waiting first, up to the limit. */
const waiting =
  (alias: "c" | "p" | "r", status: string) =>
  <DB, TB extends keyof DB, O>(qb: SelectQueryBuilder<DB, TB, O>) =>
    qb
      .where(sql.ref(`${alias}.status`), "=", status)
      .orderBy(sql.ref(`${alias}.created_at`), "asc")
      .orderBy(sql.ref(`${alias}.id`))
      .limit(PAYMENT_QUEUE_LIMIT);

/** The three queues, oldest first, each in one query. */
export async function paymentQueues(database: Kysely<Database> = db): Promise<PaymentQueues> {
  const [receipts, payouts, refunds] = await Promise.all([
    database
      .selectFrom("pix_charges as c")
      .innerJoin("contracts as k", "k.id", "c.contract_id")
      .innerJoin("opportunities as o", "o.id", "k.opportunity_id")
      .innerJoin("users as u", "u.id", "c.merchant_id")
      .select([
        "c.id",
        "c.txid",
        "c.amount_cents",
        "c.created_at",
        "c.expires_at",
        "c.claimed_at",
        "c.contract_id",
        "o.title",
      ])
      .select(PERSON_COLUMNS)
      .where("c.provider", "=", "manual")
      .$call(waiting("c", "pending"))
      .execute(),
    database
      .selectFrom("payouts as p")
      .innerJoin("users as u", "u.id", "p.user_id")
      .leftJoin("identities as i", (j) => j.onRef("i.user_id", "=", "p.user_id").on("i.status", "=", "verified"))
      .select([
        "i.document as verified_document",
        "i.legal_name as verified_name",
        "p.id",
        "p.amount_cents",
        "p.created_at",
        "p.key_type",
        "p.pix_key",
        "p.holder_name",
        "p.holder_document",
      ])
      .select(PERSON_COLUMNS)
      .$call(waiting("p", "requested"))
      .execute(),
    database
      .selectFrom("refunds as r")
      .innerJoin("contracts as k", "k.id", "r.contract_id")
      .innerJoin("opportunities as o", "o.id", "k.opportunity_id")
      .innerJoin("users as u", "u.id", "r.user_id")
      // The Pix the money came in with: the refund's own (a late payment) or the milestone's paid one.
      .leftJoin("pix_charges as c", (join) =>
        join.on((eb) =>
          eb.or([
            eb("c.id", "=", eb.ref("r.charge_id")),
            eb.and([
              eb("r.charge_id", "is", null),
              eb("c.milestone_id", "=", eb.ref("r.milestone_id")),
              eb("c.status", "=", "paid"),
            ]),
          ]),
        ),
      )
      .select(["r.id", "r.amount_cents", "r.created_at", "r.contract_id", "c.e2e_id as charge_e2e_id", "o.title"])
      .select(PERSON_COLUMNS)
      .$call(waiting("r", "due"))
      .execute(),
  ]);
  return {
    receipts: receipts.map((r) => ({
      id: r.id,
      txid: r.txid,
      amount_cents: r.amount_cents,
      created_at: r.created_at,
      expires_at: r.expires_at,
      claimed_at: r.claimed_at,
      contract: { id: r.contract_id, title: r.title },
      merchant: person(r),
    })),
    payouts: payouts.map((r) => ({
      id: r.id,
      amount_cents: r.amount_cents,
      created_at: r.created_at,
      key_type: r.key_type,
      pix_key: r.pix_key,
      holder_name: r.holder_name,
      holder_document: r.holder_document,
      freelancer: person(r),
      holder_check:
        !r.verified_document || r.verified_document !== r.holder_document
          ? "mismatch"
          : r.key_type === "cpf" || r.key_type === "cnpj"
            ? r.pix_key === r.verified_document
              ? "key_is_document"
              : "mismatch"
            : "check_at_bank",
      verified_document: r.verified_document,
      verified_name: r.verified_name,
    })),
    refunds: refunds.map((r) => ({
      id: r.id,
      amount_cents: r.amount_cents,
      created_at: r.created_at,
      charge_e2e_id: r.charge_e2e_id,
      contract: { id: r.contract_id, title: r.title },
      merchant: person(r),
    })),
  };
}

/** The audit log's row of a move, written by the move in its own transaction. */
function audited<T>(operator: UserRow, entry: (done: T) => AuditEntry): InTransaction<T> {
  return async (trx, done, at) => {
    await recordAudit(trx, operatorActor(operator), entry(done), at);
  };
}

/**
 * A Pix of the manual provider arrived: `{ e2e_id, amount_cents }` (the amount must be the
 * charge's, 422 otherwise). 409 when the charge is paid already (another operator, the webhook)
 * or the end-to-end id was used.
 */
export async function confirmPixReceipt(operator: UserRow, chargeId: string, input: unknown) {
  return confirmReceipt(
    operator,
    chargeId,
    input,
    audited(operator, ({ charge, settlement, e2e_id }) => ({
      action: "charge.confirm",
      target_type: "charge",
      target_id: charge.id,
      before: { status: charge.status },
      after: { status: "paid", e2e_id, amount_cents: charge.amount_cents, settlement },
    })),
  );
}

/** The payout was sent by Pix: `{ e2e_id }`. 409 once paid or failed. */
export async function payPayout(operator: UserRow, payoutId: string, input: unknown) {
  return markPayoutPaid(
    operator,
    payoutId,
    input,
    audited(operator, (payout) => ({
      action: "payout.pay",
      target_type: "payout",
      target_id: payout.id,
      before: { status: "requested" },
      after: { status: "paid", e2e_id: payout.e2e_id, amount_cents: payout.amount_cents },
    })),
  );
}

/** The transfer failed: `{ reason }`; the money returns to the freelancer's balance. 409 once decided. */
export async function failPayout(operator: UserRow, payoutId: string, input: unknown) {
  return markPayoutFailed(
    operator,
    payoutId,
    input,
    audited(operator, (payout) => ({
      action: "payout.fail",
      target_type: "payout",
      target_id: payout.id,
      reason: payout.failure_reason,
      before: { status: "requested" },
      after: { status: "failed", amount_cents: payout.amount_cents },
    })),
  );
}

/** The refund was paid back to the merchant by Pix: `{ e2e_id }`. 409 once recorded. */
export async function payRefund(operator: UserRow, refundId: string, input: unknown) {
  return recordRefund(
    operator,
    refundId,
    input,
    audited(operator, (refund) => ({
      action: "refund.record",
      target_type: "refund",
      target_id: refund.id,
      before: { status: "due" },
      after: { status: "paid", e2e_id: refund.e2e_id, amount_cents: refund.amount_cents },
    })),
  );
}
