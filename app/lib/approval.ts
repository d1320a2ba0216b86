import { feeOf, feePercent } from "./fees";
import { formatMoney } from "./format";

// What approving a delivery settles, worded the same on the button, its title, the confirmation
// and the toast: with payments, the milestone and the money it releases, and whether it ends the
// contract (only its last milestone does). The texts pick their variant by i18next's `context`.

type Milestone = { seq: number; title: string; amount_cents: number; status: string };

export type ApprovalWords = {
  /** "" (payments off: the contract ends), "escrow" (its only milestone), "last" or "milestone" (one more follows). */
  context: "" | "escrow" | "last" | "milestone";
  title: string;
  amount: string;
  net: string;
  fee: string;
  percent: string;
};

const WORKING = ["awaiting_funding", "funded", "delivered"];

/** The title of the milestone a hire creates (db/contracts.ts), stored as is. */
export const DEFAULT_MILESTONE_TITLE = "Projeto completo";

/** A milestone's title as the reader's language says it: the hire's default one is translated. */
export function milestoneTitle(m: { title: string }, t: (key: string) => string) {
  return m.title === DEFAULT_MILESTONE_TITLE ? t("payments.default_milestone") : m.title;
}

/** The words for approving `milestone` (the one being worked on, or the one just released). */
export function approvalWords(
  contract: { payments: string; fee_bps: number; milestones: Milestone[] },
  milestone: Milestone | undefined,
  locale: string,
  t: (key: string) => string,
): ApprovalWords {
  const cents = milestone?.amount_cents ?? 0;
  const fee = feeOf(cents, contract.fee_bps);
  const money = (c: number) => formatMoney(c, locale);
  const words = {
    title: milestone ? milestoneTitle(milestone, t) : "",
    amount: money(cents),
    net: money(cents - fee),
    fee: money(fee),
    percent: feePercent(contract.fee_bps, locale),
  };
  if (contract.payments !== "escrow" || !milestone) return { context: "", ...words };
  const more = contract.milestones.some((m) => m.seq > milestone.seq && WORKING.includes(m.status));
  const several = contract.milestones.some((m) => m.seq !== milestone.seq && m.status === "released");
  return { context: more ? "milestone" : several ? "last" : "escrow", ...words };
}

/** The milestone an approval acts on: the first one still worked on. */
export const workedOn = <M extends { status: string }>(milestones: M[]) =>
  milestones.find((m) => WORKING.includes(m.status));

/**
 * A statement line that is a week's approval: it releases the hours' money and gives back the
 * rest in one transaction (a `release`, or a `split` of the ledger; hourly contracts have no
 * dispute of their own), so /financeiro and its CSV call it "Semana aprovada".
 */
export const weekApproval = (line: { kind: string; period: { kind: "week" | "month" } | null }) =>
  line.period?.kind === "week" && (line.kind === "release" || line.kind === "split");
