import { formatDateTime } from "~/lib/format";
import { weekApproval } from "~/lib/approval";
import { db } from "../../../db";
import type { LedgerKind, LedgerTransactionRow, UserRow } from "../../../db/schema";
import { z } from "zod";
import { AppError, parseInput } from "../platform/errors.server";
import { assertId, newestFirst, pageMeta, type PageMeta } from "../platform/records.server";
import { balancesOf, type Balances } from "./ledger.server";

// A user's money (/financeiro and /api/finance): the balances, every ledger transaction of the
// user's contracts and payouts with its contract, a CSV of them all, and a receipt for each. All
// from the ledger: lines are its transactions, amounts are sums of their entries.

export type StatementLine = {
  id: string;
  kind: LedgerKind;
  created_at: string;
  contract: { id: string; title: string } | null;
  milestone: string | null;
  /**
   * The week of an hourly contract (its Monday) or the month of a monthly one ('YYYY-MM') the
   * transaction's milestone is: /financeiro names the line by it.
   */
  period: { kind: "week" | "month"; start: string } | null;
  /** The money the transaction moved (the sum of its outgoing entries). */
  amount_cents: number;
  /** The platform's fee taken in it, and what reached the freelancer's balance. */
  fee_cents: number;
  freelancer_cents: number;
  /** What is owed back to the merchant by it (refunds, splits, late payments). */
  refund_cents: number;
  e2e_id: string | null;
};

export type Statement = { balances: Balances; lines: StatementLine[]; meta: PageMeta };

const PER_PAGE = 50;
/** The CSV holds at most this many lines (the newest). */
export const CSV_MAX_LINES = 10_000;

const pageSchema = z.object({
  page: z.preprocess(
    (v) => (v === undefined || v === "" ? 1 : Number(v)),
    z
      .number({ invalid_type_error: "page_invalid" })
      .int("page_invalid")
      .min(1, "page_invalid")
      .max(10_000, "page_invalid"),
  ),
});

/**
 * The user's ledger transactions, newest first, with their entries, contracts and end-to-end
 * ids: four queries whatever the count (the transactions by side, their entries, the contracts'
 * titles, the charges', payouts' and refunds' ids).
 */
async function linesOf(
  user: UserRow,
  limit: number,
  offset: number,
): Promise<{ lines: StatementLine[]; total: number }> {
  const side = user.account_type === "merchant" ? "merchant_id" : "freelancer_id";
  const [transactions, count] = await Promise.all([
    db
      .selectFrom("ledger_transactions")
      .selectAll()
      .where(side, "=", user.id)
      .$call(newestFirst(limit, offset))
      .execute(),
    db
      .selectFrom("ledger_transactions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where(side, "=", user.id)
      .executeTakeFirstOrThrow(),
  ]);
  return { lines: await linesFor(transactions), total: Number(count.n) };
}

/** The statement lines of these transactions: their entries, contracts, milestones and end-to-end ids. */
async function linesFor(transactions: LedgerTransactionRow[]): Promise<StatementLine[]> {
  if (transactions.length === 0) return [];
  const ids = transactions.map((t) => t.id);
  const contractIds = [...new Set(transactions.map((t) => t.contract_id).filter((id): id is string => id !== null))];
  const [entries, contracts, milestones, e2e] = await Promise.all([
    db.selectFrom("ledger_entries").selectAll().where("transaction_id", "in", ids).execute(),
    contractIds.length
      ? db
          .selectFrom("contracts")
          .innerJoin("opportunities as o", "o.id", "contracts.opportunity_id")
          .select(["contracts.id", "o.title"])
          .where("contracts.id", "in", contractIds)
          .execute()
      : Promise.resolve([]),
    // Each milestone with the week or month it is, if any, in the same statement.
    db
      .selectFrom("milestones")
      .leftJoin("contract_weeks as w", "w.milestone_id", "milestones.id")
      .leftJoin("contract_months as mo", "mo.milestone_id", "milestones.id")
      .select(["milestones.id", "milestones.title", "w.week_start", "mo.month"])
      .where(
        "milestones.id",
        "in",
        transactions.map((t) => t.milestone_id ?? ""),
      )
      .execute(),
    db
      .selectFrom("pix_charges")
      .select(["id", "e2e_id"])
      .where(
        "id",
        "in",
        transactions.map((t) => t.charge_id ?? ""),
      )
      .unionAll(
        db
          .selectFrom("payouts")
          .select(["id", "e2e_id"])
          .where(
            "id",
            "in",
            transactions.map((t) => t.payout_id ?? ""),
          ),
      )
      .unionAll(
        db
          .selectFrom("refunds")
          .select(["id", "e2e_id"])
          .where(
            "id",
            "in",
            transactions.map((t) => t.refund_id ?? ""),
          ),
      )
      .execute(),
  ]);
  const titles = new Map(contracts.map((c) => [c.id, c.title]));
  const milestonesById = new Map(milestones.map((m) => [m.id, m]));
  const e2eOf = new Map(e2e.map((r) => [r.id, r.e2e_id]));
  return transactions.map((t): StatementLine => {
    const mine = entries.filter((e) => e.transaction_id === t.id);
    const milestoneOf = t.milestone_id ? milestonesById.get(t.milestone_id) : undefined;
    const sum = (pick: (account: string) => boolean) =>
      mine.filter((e) => pick(e.account) && e.amount_cents > 0).reduce((s, e) => s + e.amount_cents, 0);
    const paidBy =
      t.kind === "payout_paid" ? t.payout_id : t.kind === "refund_paid" ? t.refund_id : (t.charge_id ?? null);
    return {
      id: t.id,
      kind: t.kind,
      created_at: t.created_at,
      contract: t.contract_id ? { id: t.contract_id, title: titles.get(t.contract_id) ?? "" } : null,
      milestone: milestoneOf?.title ?? null,
      period: periodOf(milestoneOf),
      amount_cents: -mine.filter((e) => e.amount_cents < 0).reduce((s, e) => s + e.amount_cents, 0),
      fee_cents: sum((a) => a === "fees"),
      freelancer_cents: sum((a) => a.startsWith("available:")),
      refund_cents: sum((a) => a.startsWith("refund:")),
      e2e_id: paidBy ? (e2eOf.get(paidBy) ?? null) : null,
    };
  });
}

/** The week or month a milestone is (none for a fixed contract's). */
function periodOf(m: { week_start: string | null; month: string | null } | undefined): StatementLine["period"] {
  if (m?.week_start) return { kind: "week", start: m.week_start };
  if (m?.month) return { kind: "month", start: m.month };
  return null;
}

export async function getStatement(user: UserRow, query: unknown = {}): Promise<Statement> {
  const { page } = parseInput(pageSchema, query);
  const [balances, { lines, total }] = await Promise.all([
    balancesOf(user),
    linesOf(user, PER_PAGE, (page - 1) * PER_PAGE),
  ]);
  return { balances, lines, meta: pageMeta(page, PER_PAGE, total) };
}

/** One CSV cell: quoted when needed, and a text a spreadsheet would read as a formula kept as text. */
export const csvCell = (value: string | number | null) => {
  const text = value === null ? "" : String(value);
  // A cell a spreadsheet would read as a formula is quoted as text.
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === "string" ? `'${text}` : text;
  return /[",;\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** A moment as a spreadsheet reads it, on Brasília's clock (the header says so): "27/11/2026 19:48". */
export const localMoment = (iso: string) => formatDateTime(iso, "pt-BR").replace(", ", " ");

export const reais = (cents: number) => (cents / 100).toFixed(2).replace(".", ",");

/**
 * Every line as CSV (semicolons and decimal commas, as spreadsheets set to Portuguese read it;
 * UTF-8 with a BOM), with a header row; `labels` names the kinds in the user's language (and
 * `week_approved`, a week's approval).
 */
export async function statementCsv(user: UserRow, labels: Record<string, string>): Promise<string> {
  const { lines } = await linesOf(user, CSV_MAX_LINES, 0);
  const rows = [
    [
      "data (horário de Brasília)",
      "tipo",
      "contrato",
      "etapa",
      "valor",
      "taxa",
      "freelancer",
      "estorno",
      "id fim a fim",
      "transação",
    ],
    ...lines.map((l) => [
      localMoment(l.created_at),
      labels[weekApproval(l) ? "week_approved" : l.kind] ?? l.kind,
      l.contract?.title ?? "",
      l.milestone ?? "",
      reais(l.amount_cents),
      reais(l.fee_cents),
      reais(l.freelancer_cents),
      reais(l.refund_cents),
      l.e2e_id ?? "",
      l.id,
    ]),
  ];
  return csvText(rows);
}

/** Rows as CSV text: semicolons, CRLF, UTF-8 with a BOM (as spreadsheets set to Portuguese read it). */
export const csvText = (rows: (string | number | null)[][]) =>
  `\ufeff${rows.map((r) => r.map(csvCell).join(";")).join("\r\n")}\r\n`;

/** A party as a receipt names them: the company and its CNPJ when the merchant declared them, a document when known. */
export type ReceiptParty = { name: string; company_name: string | null; document: string | null };

export type Receipt = StatementLine & {
  merchant: ReceiptParty | null;
  freelancer: ReceiptParty | null;
  payout: { pix_key: string; key_type: string; holder_name: string; holder_document: string } | null;
};

/** Kinds a receipt is issued for: a payment in, a release, a payout paid, a refund paid. */
export const RECEIPT_KINDS: LedgerKind[] = ["charge_received", "release", "split", "payout_paid", "refund_paid"];

/** The receipt of one of the user's transactions (404 for anyone else's, or a kind without one). */
export async function getReceipt(user: UserRow, id: string): Promise<Receipt> {
  assertId(id);
  const side = user.account_type === "merchant" ? "merchant_id" : "freelancer_id";
  const t = await db
    .selectFrom("ledger_transactions")
    .selectAll()
    .where("id", "=", id)
    .where(side, "=", user.id)
    .executeTakeFirst();
  if (!t || !RECEIPT_KINDS.includes(t.kind)) throw new AppError(404, "not_found");
  const [line] = await linesFor([t]);
  const names = await db
    .selectFrom("users")
    .select(["id", "full_name", "company_name", "company_cnpj"])
    .where("id", "in", [t.merchant_id ?? "", t.freelancer_id ?? ""])
    .execute();
  const party = (uid: string | null, document: string | null): ReceiptParty | null => {
    const found = names.find((n) => n.id === uid);
    return found ? { name: found.full_name, company_name: found.company_name, document } : null;
  };
  const payout = t.payout_id
    ? await db
        .selectFrom("payouts")
        .select(["pix_key", "key_type", "holder_name", "holder_document"])
        .where("id", "=", t.payout_id)
        .executeTakeFirst()
    : undefined;
  const merchantRow = names.find((n) => n.id === t.merchant_id);
  return {
    ...line,
    // The merchant's company and CNPJ as declared on their profile (users.company_*): on the receipts of their contracts.
    merchant: party(t.merchant_id, merchantRow?.company_cnpj ?? null),
    // The freelancer's document is the payout's holder's, on the receipt of a payout (theirs alone).
    freelancer: party(t.freelancer_id, payout?.holder_document ?? null),
    payout: payout ?? null,
  };
}
