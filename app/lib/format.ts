const TIME_ZONE = "America/Sao_Paulo";

// Building an Intl formatter costs far more than using one (it loads locale and time-zone
// data): a list page formats dozens of values, so each formatter is built once per locale.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, build: () => T): T {
  let formatter = formatters.get(key) as T | undefined;
  if (!formatter) {
    formatter = build();
    formatters.set(key, formatter);
  }
  return formatter;
}

export const numberFormat = (locale: string, options: Intl.NumberFormatOptions) =>
  cached(`n|${locale}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale, options));

export const dateTimeFormat = (locale: string, options: Intl.DateTimeFormatOptions) =>
  cached(`d|${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));

/** Centavos as Brazilian reais: 150000 → "R$ 1.500,00". */
export function formatMoney(cents: number, locale = "pt-BR") {
  // narrowSymbol: "R$" in every language (Spanish would otherwise write "BRL").
  return numberFormat(locale, { style: "currency", currency: "BRL", currencyDisplay: "narrowSymbol" }).format(
    cents / 100,
  );
}

export function formatDate(iso: string, locale = "pt-BR") {
  return dateTimeFormat(locale, { dateStyle: "medium", timeZone: TIME_ZONE }).format(new Date(iso));
}

export function formatDateTime(iso: string, locale = "pt-BR") {
  return dateTimeFormat(locale, { dateStyle: "short", timeStyle: "short", timeZone: TIME_ZONE }).format(new Date(iso));
}

/** A rating with one decimal: 4.5 → "4,5" (pt-BR), "4.5" (en). */
export function formatRating(value: number, locale = "pt-BR") {
  return numberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}

/**
 * The start of a text on one line: at most `max` characters (whole characters, never half of an
 * emoji), cut at a word when one ends in the second half, with "…" when something was left out.
 */
export function excerpt(text: string, max = 160) {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = Array.from(flat);
  if (chars.length <= max) return flat;
  const cut = chars.slice(0, max - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${space >= max / 2 ? cut.slice(0, space) : chars.slice(0, max / 2).join("")}…`;
}
