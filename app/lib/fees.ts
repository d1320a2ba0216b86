import { numberFormat } from "./format";

// The platform's fee (docs/payments.md): basis points frozen on the contract at the hire, taken
// from what is released to the freelancer. One rounding, written once: the fee is rounded down
// to the centavo, so the freelancer never receives less than the rate says.

export const BPS = 10_000;

/** fee = floor(amount × bps / 10 000), in integer centavos. */
export function feeOf(amountCents: number, bps: number): number {
  return Math.floor((amountCents * bps) / BPS);
}

/** What the freelancer receives of `amountCents` after the fee. */
export function netOf(amountCents: number, bps: number): number {
  return amountCents - feeOf(amountCents, bps);
}

/** The rate as people read it: 1000 → "10", 1250 → "12,5" (pt-BR) or "12.5". */
export function feePercent(bps: number, locale = "pt-BR"): string {
  return numberFormat(locale, { maximumFractionDigits: 2 }).format(bps / 100);
}
