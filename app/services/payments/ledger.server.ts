import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { db } from "../../../db";
import type { Database, LedgerKind, LedgerTransactionsTable, UserRow } from "../../../db/schema";

// The ledger (docs/payments.md): every movement of money is one transaction of signed entries in
// integer centavos that sum to zero (double entry). What enters an account is positive. Accounts:
//
//   external:<user>   the world outside, seen from one user: a merchant's Pix in is negative
//                     there, a payout or a refund paid to someone is positive (the only
//                     accounts that may go below zero)
//   escrow:<milestone> money held for a milestone, from its charge until released or refunded
//                     (an hourly week may hold some before its charge: kept from the week before)
//   available:<user>  a freelancer's released money, until a payout is asked for
//   payout:<payout>   a payout asked for, until the operator pays it (or it fails and comes back)
//   refund:<refund>   money owed back to a merchant, until the operator pays it
//   fees              the platform's fees
//
// Rows are never updated nor deleted (the database's triggers refuse it): a balance is always
// the sum of its account's entries.

export type Entry = { account: string; user_id: string | null; amount_cents: number };
export type LedgerHeader = Omit<LedgerTransactionsTable, "id" | "created_at"> & { kind: LedgerKind };

export const account = {
  external: (userId: string) => `external:${userId}`,
  escrow: (milestoneId: string) => `escrow:${milestoneId}`,
  available: (userId: string) => `available:${userId}`,
  payout: (payoutId: string) => `payout:${payoutId}`,
  refund: (refundId: string) => `refund:${refundId}`,
  fees: "fees",
};

/**
 * Work a caller (the operator console's audit log) adds to a money move, in the move's own
 * database transaction: it sees what was done, and the move and it commit or roll back together.
 */
export type InTransaction<T> = (trx: Kysely<Database>, done: T, at: string) => Promise<void>;

/** Accounts of the world outside may go negative (money came in from there); no other may. */
const mayGoNegative = (name: string) => name.startsWith("external:");

export class LedgerError extends Error {}

/**
 * Records one balanced transaction inside the caller's database transaction. Refuses (throws,
 * so the caller's transaction rolls back) entries that do not sum to zero, zero amounts,
 * fractional centavos, and anything that would leave an account other than external:* below
 * zero.
 */
export async function post(
  trx: Kysely<Database>,
  header: Partial<LedgerHeader> & { kind: LedgerKind },
  entries: Entry[],
  at: string,
): Promise<string> {
  const kept = entries.filter((e) => e.amount_cents !== 0);
  if (kept.length < 2) throw new LedgerError("a ledger transaction needs two entries or more");
  if (kept.some((e) => !Number.isSafeInteger(e.amount_cents))) throw new LedgerError("amounts are integer centavos");
  if (kept.reduce((sum, e) => sum + e.amount_cents, 0) !== 0) throw new LedgerError("entries must sum to zero");
  const id = randomUUID();
  await trx
    .insertInto("ledger_transactions")
    .values({
      id,
      kind: header.kind,
      contract_id: header.contract_id ?? null,
      milestone_id: header.milestone_id ?? null,
      charge_id: header.charge_id ?? null,
      payout_id: header.payout_id ?? null,
      refund_id: header.refund_id ?? null,
      merchant_id: header.merchant_id ?? null,
      freelancer_id: header.freelancer_id ?? null,
      memo: header.memo ?? null,
      created_at: at,
    })
    .execute();
  await trx
    .insertInto("ledger_entries")
    .values(kept.map((e) => ({ id: randomUUID(), transaction_id: id, ...e, created_at: at })))
    .execute();
  const debited = [
    ...new Set(kept.filter((e) => e.amount_cents < 0 && !mayGoNegative(e.account)).map((e) => e.account)),
  ];
  if (debited.length > 0) {
    const negative = await trx
      .selectFrom("ledger_entries")
      .select(["account", (eb) => eb.fn.sum<number>("amount_cents").as("balance")])
      .where("account", "in", debited)
      .groupBy("account")
      .having((eb) => eb.fn.sum("amount_cents"), "<", 0)
      .execute();
    if (negative.length > 0) throw new LedgerError(`${negative[0].account} would go below zero`);
  }
  return id;
}

/** The balance of one account: the sum of its entries. */
export async function balanceOf(name: string, database: Kysely<Database> = db): Promise<number> {
  const row = await database
    .selectFrom("ledger_entries")
    .select((eb) => eb.fn.sum<number>("amount_cents").as("balance"))
    .where("account", "=", name)
    .executeTakeFirst();
  return Number(row?.balance ?? 0);
}

export type Balances = {
  /** In escrow on the user's contracts (funded, not yet released or refunded). */
  held_cents: number;
  /** Freelancer: released and not yet asked for. */
  available_cents: number;
  /** Freelancer: payouts asked for, waiting for the operator. */
  payout_pending_cents: number;
  /** Freelancer: paid out by Pix. */
  paid_out_cents: number;
  /** Merchant: owed back, waiting for the operator. */
  refund_due_cents: number;
  /** Merchant: paid in by Pix. */
  paid_in_cents: number;
  /** Merchant: refunds paid back. */
  refunded_cents: number;
};

/**
 * A user's balances, every one a sum of ledger entries, in two queries whatever the number of
 * entries: the user's own accounts (one index range on ledger_entries_user), and what is held in
 * escrow on the milestones of the user's contracts.
 */
export async function balancesOf(user: Pick<UserRow, "id" | "account_type">): Promise<Balances> {
  const side = user.account_type === "merchant" ? "c.merchant_id" : "c.freelancer_id";
  const [own, held] = await Promise.all([
    db
      .selectFrom("ledger_entries")
      .select([
        sql<string>`CASE WHEN account LIKE 'payout:%' THEN 'payout' WHEN account LIKE 'refund:%' THEN 'refund'
          WHEN account LIKE 'available:%' THEN 'available' WHEN account LIKE 'external:%' THEN 'external' ELSE 'other' END`.as(
          "kind",
        ),
        (eb) => eb.fn.sum<number>(sql`CASE WHEN amount_cents > 0 THEN amount_cents ELSE 0 END`).as("inflow"),
        (eb) => eb.fn.sum<number>(sql`CASE WHEN amount_cents < 0 THEN -amount_cents ELSE 0 END`).as("outflow"),
      ])
      .where("user_id", "=", user.id)
      .groupBy("kind")
      .execute(),
    sql<{ held: number | null }>`SELECT sum(e.amount_cents) AS held
      FROM milestones m JOIN contracts c ON c.id = m.contract_id
      JOIN ledger_entries e ON e.account = 'escrow:' || m.id
      WHERE ${sql.ref(side)} = ${user.id} AND c.payments = 'escrow'`.execute(db),
  ]);
  const of = (kind: string) => own.find((r) => r.kind === kind);
  const net = (kind: string) => Number(of(kind)?.inflow ?? 0) - Number(of(kind)?.outflow ?? 0);
  return {
    held_cents: Number(held.rows[0]?.held ?? 0),
    available_cents: net("available"),
    payout_pending_cents: net("payout"),
    paid_out_cents: user.account_type === "freelancer" ? Number(of("external")?.inflow ?? 0) : 0,
    refund_due_cents: net("refund"),
    paid_in_cents: user.account_type === "merchant" ? Number(of("external")?.outflow ?? 0) : 0,
    refunded_cents: user.account_type === "merchant" ? Number(of("external")?.inflow ?? 0) : 0,
  };
}

export type LedgerProblem = { problem: string; id: string };

/**
 * Every invariant of the ledger, checked against the database (`npm run ledger:check`, and the
 * property tests): the rows that break one, none when all is well.
 */
export async function checkLedger(database: Kysely<Database> = db): Promise<LedgerProblem[]> {
  // Products of money are computed in 64 bits (released_cents × fee_bps passes 2³¹ from R$ 21.474,84
  // at 10%); sums of bigint are numeric on PostgreSQL, read back as exact numbers (db/index.ts).
  const { rows } = await sql<LedgerProblem>`
      SELECT 'transaction does not sum to zero' AS problem, transaction_id AS id FROM ledger_entries
        GROUP BY transaction_id HAVING sum(amount_cents) <> 0
      UNION ALL SELECT 'transaction with fewer than two entries', t.id FROM ledger_transactions t
        WHERE (SELECT count(*) FROM ledger_entries e WHERE e.transaction_id = t.id) < 2
      UNION ALL SELECT 'negative balance', account FROM ledger_entries WHERE account NOT LIKE 'external:%'
        GROUP BY account HAVING sum(amount_cents) < 0
      UNION ALL SELECT 'escrow differs from the milestone', m.id FROM milestones m JOIN contracts c ON c.id = m.contract_id
        WHERE coalesce((SELECT sum(e.amount_cents) FROM ledger_entries e WHERE e.account = 'escrow:' || m.id), 0)
          <> CASE WHEN c.payments <> 'escrow' THEN 0 WHEN m.status IN ('funded', 'delivered') THEN m.amount_cents
            WHEN m.status = 'awaiting_funding' THEN m.carried_in_cents ELSE 0 END
      UNION ALL SELECT 'settlement does not add up', m.id FROM milestones m
        WHERE m.status IN ('released', 'refunded') AND m.funded_at IS NOT NULL
          AND m.released_cents + m.refunded_cents + m.carried_out_cents <> m.amount_cents
      UNION ALL SELECT 'fee is not the frozen rate', m.id FROM milestones m JOIN contracts c ON c.id = m.contract_id
        WHERE m.fee_cents <> (CAST(m.released_cents AS bigint) * c.fee_bps) / 10000
      UNION ALL SELECT 'fees differ from the milestones', m.id FROM milestones m
        WHERE m.fee_cents <> coalesce((SELECT sum(e.amount_cents) FROM ledger_entries e
          JOIN ledger_transactions t ON t.id = e.transaction_id
          WHERE t.milestone_id = m.id AND e.account = 'fees'), 0)
      UNION ALL SELECT 'payout balance differs from its state', p.id FROM payouts p
        WHERE coalesce((SELECT sum(e.amount_cents) FROM ledger_entries e WHERE e.account = 'payout:' || p.id), 0)
          <> CASE WHEN p.status = 'requested' THEN p.amount_cents ELSE 0 END
      UNION ALL SELECT 'refund balance differs from its state', r.id FROM refunds r
        WHERE coalesce((SELECT sum(e.amount_cents) FROM ledger_entries e WHERE e.account = 'refund:' || r.id), 0)
          <> CASE WHEN r.status = 'due' THEN r.amount_cents ELSE 0 END
      UNION ALL SELECT 'paid charge not received exactly once', ch.id FROM pix_charges ch
        WHERE (SELECT count(*) FROM ledger_transactions t WHERE t.charge_id = ch.id
          AND t.kind IN ('charge_received', 'late_payment')) <> CASE WHEN ch.status = 'paid' THEN 1 ELSE 0 END
      UNION ALL SELECT 'money on a contract without payments', t.id FROM ledger_transactions t
        JOIN contracts c ON c.id = t.contract_id WHERE c.payments = 'off'
    `.execute(database);
  return rows;
}

/** The held total: the escrow of every funded milestone not settled yet (and of money kept for a week not paid yet). */
export async function heldTotal(database: Kysely<Database> = db) {
  const row = await sql<{ ledger: number | null; milestones: number | null }>`SELECT
      (SELECT sum(amount_cents) FROM ledger_entries WHERE account LIKE 'escrow:%') AS ledger,
      (SELECT sum(CASE WHEN m.status = 'awaiting_funding' THEN m.carried_in_cents ELSE m.amount_cents END)
        FROM milestones m JOIN contracts c ON c.id = m.contract_id
        WHERE c.payments = 'escrow' AND m.status IN ('funded', 'delivered', 'awaiting_funding')) AS milestones`.execute(
    database,
  );
  return { ledger: Number(row.rows[0].ledger ?? 0), milestones: Number(row.rows[0].milestones ?? 0) };
}
