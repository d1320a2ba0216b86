import { formatMoney, numberFormat } from "./format";

export { formatMoney };

/** The largest price the product accepts: R$ 1.000.000,00 (docs/product.md §2). */
export const MAX_CENTS = 100_000_000;

/**
 * Reais typed the way people type them into integer centavos, or null when the text is not a
 * price. Accepts "1.500,00", "1500", "R$ 1.500,50", "1500,5", "1500.5" and "1,500.50".
 * The arithmetic is done on the digits, never on floats, so 0,29 is 29 centavos and not 28.
 * A price too large to count exactly is Infinity: a price all the same, which every range check
 * refuses with the allowed range.
 */
export function parseMoney(input: string | null | undefined): number | null {
  if (typeof input !== "string") return null;
  const text = input
    .replace(/\s|\u00a0/g, "")
    .replace(/^R\$/i, "")
    .replace(/^BRL/i, "");
  if (!/^\d[\d.,]*$/.test(text)) return null;

  const lastComma = text.lastIndexOf(",");
  const lastDot = text.lastIndexOf(".");
  let whole: string;
  let fraction = "";

  if (lastComma >= 0 && lastDot >= 0) {
    // Both separators: the last one is the decimal separator, the other groups thousands.
    const decimalSep = lastComma > lastDot ? "," : ".";
    const groupSep = decimalSep === "," ? "." : ",";
    const at = text.lastIndexOf(decimalSep);
    whole = text.slice(0, at);
    fraction = text.slice(at + 1);
    if (whole.includes(decimalSep) || !isGrouped(whole, groupSep)) return null;
    whole = whole.split(groupSep).join("");
  } else if (lastComma >= 0) {
    // Only commas: Brazilian decimal comma ("1500,5"); several commas are not a price.
    if (text.indexOf(",") !== lastComma) return null;
    whole = text.slice(0, lastComma);
    fraction = text.slice(lastComma + 1);
  } else if (lastDot >= 0) {
    const parts = text.split(".");
    const tail = parts[parts.length - 1]!;
    if (parts.length === 2 && tail.length <= 2) {
      // "1500.5" or "1500.50": a decimal point.
      whole = parts[0]!;
      fraction = tail;
    } else {
      // "1.500" or "1.500.000": thousands groups, as a Brazilian would type them.
      if (!isGrouped(text, ".")) return null;
      whole = parts.join("");
    }
  } else {
    whole = text;
  }

  if (whole === "" || !/^\d+$/.test(whole) || !/^\d{0,2}$/.test(fraction)) return null;
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0") || "0");
  return Number.isSafeInteger(cents) ? cents : Number.POSITIVE_INFINITY;
}

/** "1.500.000" is grouped by thousands; "15.00.000" is not. */
function isGrouped(text: string, sep: string) {
  if (!text.includes(sep)) return /^\d+$/.test(text);
  const [head, ...groups] = text.split(sep);
  return /^\d{1,3}$/.test(head!) && groups.every((g) => /^\d{3}$/.test(g));
}

/** Centavos as the text a price field shows again: 150050 → "1.500,50", 150000 → "1.500,00". */
export function centsToInput(cents: number | null | undefined): string {
  if (typeof cents !== "number" || !Number.isFinite(cents)) return "";
  return numberFormat("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(cents / 100);
}

/** A budget as a range, or one value when both ends agree: "R$ 1.000,00 – R$ 2.000,00". */
export function formatRange(minCents: number, maxCents: number, locale = "pt-BR") {
  return minCents === maxCents
    ? formatMoney(minCents, locale)
    : `${formatMoney(minCents, locale)} – ${formatMoney(maxCents, locale)}`;
}

/**
 * An hourly price's estimate for a number of days: full working days of this many hours. Shown
 * beside the hourly price (never charged): what a price per hour means over the days agreed.
 */
export const HOURS_PER_DAY = 8;

export function estimatedTotalCents(hourlyCents: number, days: number) {
  return hourlyCents * HOURS_PER_DAY * days;
}
