import { redirect } from "@remix-run/node";
import { AppError } from "~/services/platform/errors.server";
import { formError } from "./errors.server";
import { untypeableFields } from "./input.server";
import { fixedT } from "~/services/platform/i18n.server";
import { getRequestT } from "./i18n.server";
import { redirectWithSuccess } from "./toast.server";
import { parseMoney } from "~/lib/money";

// Page glue for the marketplace forms: price fields are typed in reais and the services take
// centavos, so the page converts on the way in and maps the services' errors back on the way out.

/** Page field (reais, as typed) → service field (centavos). */
export type PriceFields = Record<string, `${string}_cents`>;

/**
 * Reais as typed → centavos: the values without the price fields, with their `*_cents` fields
 * for those that are prices, and the page fields that are not (or are empty when `required`).
 * Forms and list filters both convert through here.
 */
export function reaisToCents(values: Record<string, string>, prices: PriceFields, { required = false } = {}) {
  const input: Record<string, unknown> = { ...values };
  const invalid: string[] = [];
  for (const [field, centsField] of Object.entries(prices)) {
    delete input[field];
    const typed = values[field]?.trim() ?? "";
    if (typed === "") {
      if (required) invalid.push(field);
      continue;
    }
    const cents = parseMoney(typed);
    if (cents === null) invalid.push(field);
    else input[centsField] = cents;
  }
  return { input, invalid };
}

/**
 * The service input for a form: every price field converted to centavos. A price that is not a
 * price goes on as NaN, which every price check of the services refuses, so the service still
 * checks the other fields and the rules across them: the user sees every problem at once
 * (marketFormError words the refused price's message).
 */
export function priceInput(values: Record<string, string>, prices: PriceFields, { required = false } = {}) {
  const { input, invalid } = reaisToCents(values, prices, { required });
  for (const field of invalid) input[prices[field]!] = Number.NaN;
  return input;
}

/**
 * The action data of a refused form, with the services' `*_cents` field errors moved onto the
 * price fields the user typed in; a refused price that is no price at all (empty, or not
 * reais) says how to type one, a price out of bounds keeps the service's range.
 */
export async function marketFormError(
  request: Request,
  error: unknown,
  values: Record<string, string>,
  prices: PriceFields = {},
) {
  if (error instanceof AppError && error.fieldErrors) {
    const byCents = Object.fromEntries(Object.entries(prices).map(([field, cents]) => [cents, field]));
    const fieldErrors: Record<string, string> = {};
    for (const [field, key] of Object.entries(error.fieldErrors)) {
      const priceField = byCents[field];
      if (!priceField) fieldErrors[field] = key;
      else fieldErrors[priceField] = parseMoney(values[priceField]?.trim() ?? "") === null ? "money_invalid" : key;
    }
    error.fieldErrors = fieldErrors;
  }
  return formError(request, error, values);
}

/** The visitor's translator for the `market` namespace (toasts of the page actions). */
export async function marketT(request: Request) {
  const { lng } = await getRequestT(request);
  return fixedT(lng, "market");
}

/** Post/redirect/get with a success toast in the visitor's language. */
export async function redirectWithMarketToast(
  request: Request,
  to: string,
  key: string,
  values: Record<string, unknown> = {},
) {
  const t = await marketT(request);
  return redirectWithSuccess(to, t(key, values));
}

/**
 * Destructive intents arrive from their confirmation step only; a bare post (an old page, a
 * crafted form) is sent to that step instead of being carried out.
 */
export function requireConfirmed(values: Record<string, string>, confirmUrl: string) {
  if (values.confirmed !== "1") throw redirect(confirmUrl);
}

/**
 * The URL's non-empty query parameters among `fields`. One holding control characters is left
 * out, as any parameter a page cannot use (the API refuses it: queryOf).
 */
export function queryFromUrl(request: Request, fields: readonly string[]): Record<string, string> {
  const params = new URL(request.url).searchParams;
  const query: Record<string, string> = {};
  for (const field of fields) {
    const value = params.get(field);
    if (value) query[field] = value;
  }
  for (const field of Object.keys(untypeableFields(query))) delete query[field];
  return query;
}

/**
 * Reads a list; when the service refuses some of the query's fields (a hand-edited link), they
 * are dropped from `query` and the list read once more, so a bad link still shows a page.
 * `refused` holds the dropped fields with their message keys.
 */
export async function readWithoutRefused<T, Q extends Record<string, unknown>>(
  query: Q,
  read: (query: Q) => Promise<T>,
): Promise<{ list: T; refused: Record<string, string> }> {
  try {
    return { list: await read(query), refused: {} };
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 422 || !error.fieldErrors) throw error;
    for (const field of Object.keys(error.fieldErrors)) delete query[field];
    return { list: await read(query), refused: error.fieldErrors };
  }
}

/** A list read with query parameters from the URL, a refused parameter left out (see readWithoutRefused). */
export async function listFromUrl<T>(
  request: Request,
  fields: readonly string[],
  read: (query: Record<string, string>) => Promise<T>,
): Promise<{ list: T; query: Record<string, string> }> {
  const query = queryFromUrl(request, fields);
  const { list } = await readWithoutRefused(query, read);
  return { list, query };
}
