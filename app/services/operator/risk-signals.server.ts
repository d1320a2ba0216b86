import { sql } from "kysely";
import { db } from "../../../db";
import { displayNameOf } from "../accounts/users.server";
import { AppError } from "../platform/errors.server";
import { assertId } from "../platform/records.server";

// What the operator weighs about one account before trusting it (docs/product.md, "Sinais de
// risco"; the section of /admin/users/:id, GET /api/admin/users/:id/risk): the other accounts it
// shares a document with, the reports about its content, its messages delivered with a contact
// masked, the disputes decided against it and the refunds of its contracts. Two statements,
// whatever the data: the accounts sharing a document, and every count in one row.

/** How another account shares a document: a refused identity, or a payout key's holder. */
export type SharedVia = "identity" | "payout_key";

export type RiskSignalsJson = {
  /** Other accounts (up to SHARED_SHOWN) with this one's CPF/CNPJ, or whose Pix key it pays to. */
  shared_documents: { id: string; name: string; via: SharedVia }[];
  reports_received: { total: number; open: number };
  masked_contacts: number;
  /** Decided against it: cancelled when it was the freelancer, completed when the merchant. */
  disputes_lost: number;
  refunds: { count: number; amount_cents: number };
};

const SHARED_SHOWN = 50;

/** The other accounts sharing a document with `id`, each once per way (UNION drops repeats). */
const sharedDocuments = (id: string) => sql<{ other_id: string; via: SharedVia }>`
  SELECT holder_user_id AS other_id, 'identity' AS via FROM identity_conflicts WHERE user_id = ${id}
  UNION SELECT user_id, 'identity' FROM identity_conflicts WHERE holder_user_id = ${id}
  UNION SELECT q.user_id, 'payout_key' FROM payout_accounts p
    JOIN payout_accounts q ON q.holder_document = p.holder_document AND q.user_id <> p.user_id
    WHERE p.user_id = ${id}
  UNION SELECT i.user_id, 'payout_key' FROM payout_accounts p
    JOIN identities i ON i.document = p.holder_document AND i.user_id <> p.user_id
    WHERE p.user_id = ${id}
  UNION SELECT p.user_id, 'payout_key' FROM identities i
    JOIN payout_accounts p ON p.holder_document = i.document AND p.user_id <> i.user_id
    WHERE i.user_id = ${id}`;

/** 404 for an account that does not exist. */
export async function riskSignals(id: string): Promise<RiskSignalsJson> {
  assertId(id, "user_not_found");
  const party = sql`(c.merchant_id = ${id} OR c.freelancer_id = ${id})`;
  const [shared, counts] = await Promise.all([
    sql<{ other_id: string; via: SharedVia; display_name: string | null; full_name: string }>`
      SELECT s.other_id, s.via, u.display_name, u.full_name FROM (${sharedDocuments(id)}) s
        JOIN users u ON u.id = s.other_id
       ORDER BY u.created_at, s.other_id, s.via
       LIMIT ${SHARED_SHOWN}`.execute(db),
    sql<
      Record<
        "found" | "reports" | "open_reports" | "masked" | "disputes_lost" | "refunds" | "refunded",
        number | string
      >
    >`
      SELECT
        (SELECT count(*) FROM users WHERE id = ${id}) AS found,
        (SELECT count(*) FROM reports WHERE author_id = ${id}) AS reports,
        (SELECT count(*) FROM reports WHERE author_id = ${id} AND status = 'open') AS open_reports,
        (SELECT count(*) FROM contact_flags WHERE user_id = ${id}) AS masked,
        (SELECT count(*) FROM disputes d JOIN contracts c ON c.id = d.contract_id
          WHERE d.status = 'decided'
            AND ((c.freelancer_id = ${id} AND d.decision = 'cancel') OR (c.merchant_id = ${id} AND d.decision = 'complete'))
        ) AS disputes_lost,
        (SELECT count(*) FROM refunds r JOIN contracts c ON c.id = r.contract_id WHERE ${party}) AS refunds,
        (SELECT coalesce(sum(r.amount_cents), 0) FROM refunds r JOIN contracts c ON c.id = r.contract_id WHERE ${party}) AS refunded`.execute(
      db,
    ),
  ]);
  const n = counts.rows[0]!;
  if (Number(n.found) === 0) throw new AppError(404, "user_not_found");
  return {
    shared_documents: shared.rows.map((r) => ({ id: r.other_id, name: displayNameOf(r)!, via: r.via })),
    reports_received: { total: Number(n.reports), open: Number(n.open_reports) },
    masked_contacts: Number(n.masked),
    disputes_lost: Number(n.disputes_lost),
    refunds: { count: Number(n.refunds), amount_cents: Number(n.refunded) },
  };
}
