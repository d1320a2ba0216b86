import { getRequestT } from "./i18n.server";

const KINDS = [
  "charge_received",
  "release",
  "refund",
  "split",
  "late_payment",
  "payout_requested",
  "payout_paid",
  "payout_failed",
  "refund_paid",
] as const;

/** The ledger's kinds of transaction in the request's language (for the CSV). */
export async function ledgerKindLabels(request: Request): Promise<Record<string, string>> {
  const { t } = await getRequestT(request);
  return {
    ...Object.fromEntries(KINDS.map((k) => [k, t(`finance.kinds.${k}`, { ns: "market" })])),
    week_approved: t("finance.week_approved", { ns: "market" }),
  };
}

/** A CSV download. */
export function csvResponse(body: string, name = "freela-extrato.csv") {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
