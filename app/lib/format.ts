const TIME_ZONE = "America/Sao_Paulo";

/** Centavos as Brazilian reais: 150000 → "R$ 1.500,00". */
export function formatMoney(cents: number, locale = "pt-BR") {
  return new Intl.NumberFormat(locale, { style: "currency", currency: "BRL" }).format(cents / 100);
}

export function formatDate(iso: string, locale = "pt-BR") {
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: TIME_ZONE }).format(new Date(iso));
}

export function formatDateTime(iso: string, locale = "pt-BR") {
  return new Intl.DateTimeFormat(locale, { dateStyle: "short", timeStyle: "short", timeZone: TIME_ZONE }).format(
    new Date(iso),
  );
}
