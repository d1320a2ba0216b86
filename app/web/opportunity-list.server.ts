import type { UserRow } from "../../db/schema";
import { fixedT } from "~/services/platform/i18n.server";
import { getRequestT } from "./i18n.server";
import { formValues, readForm } from "./bodies.server";
import { formError } from "./errors.server";
import {
  priceInput,
  queryFromUrl,
  reaisToCents,
  readWithoutRefused,
  redirectWithMarketToast,
} from "./market-forms.server";
import { listOpportunities } from "~/services/marketplace/opportunities.server";
import { createSavedSearch } from "~/services/discovery/saved-searches.server";
import { AppError } from "~/services/platform/errors.server";

/** The filters a list page reads from its URL; prices are in reais, as the visitor typed them. */
export const FILTER_FIELDS = [
  "q",
  "category",
  "budget_type",
  "location_type",
  "status",
  "budget_min",
  "budget_max",
  "sort",
  "page",
] as const;

const PRICE_FILTERS = { budget_min: "budget_min_cents", budget_max: "budget_max_cents" } as const;

/**
 * One page of an opportunity list (`read`: the signed-in one, or the visitors') for the URL's
 * filters. A filter that is not valid is shown with its message and left out, so the rest of the
 * list still answers.
 */
export async function loadOpportunityList<L extends object>(
  request: Request,
  read: (query: Record<string, unknown>) => Promise<L>,
  fields: readonly string[] = FILTER_FIELDS,
) {
  const filters = queryFromUrl(request, fields);
  const { lng, t } = await getRequestT(request);
  const errors: Record<string, string> = {};
  const { input: query, invalid } = reaisToCents(filters, PRICE_FILTERS);
  for (const field of invalid) errors[field] = fixedT(lng, "market")("filters.money_invalid");
  const { list, refused } = await readWithoutRefused(query, read);
  for (const [field, key] of Object.entries(refused)) errors[field.replace(/_cents$/, "")] = t(key);
  return { ...list, filters, errors };
}

/** The signed-in list: a merchant's own opportunities, or the open ones for a freelancer. */
export const loadUserOpportunityList = (user: UserRow, request: Request) =>
  loadOpportunityList(request, (q) => listOpportunities(user, q));

/** The list's filters a saved search keeps (not the order, the page or a merchant's status). */
const SAVED_FILTER_FIELDS = ["q", "category", "budget_type", "location_type", "budget_min", "budget_max"] as const;

/**
 * The list page's "Salvar busca" form: its hidden filters (prices in reais, as in the URL), a
 * name and a frequency → the search page with a toast; a refusal comes back to the form with
 * what was typed. A filter the service refuses is reported under the form.
 */
export async function saveSearchFromList(user: UserRow, request: Request) {
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    if (values.intent !== "save_search") throw new AppError(400, "validation_failed");
    const typed: Record<string, string> = {};
    for (const field of SAVED_FILTER_FIELDS) if (values[field]) typed[field] = values[field]!;
    await createSavedSearch(user, {
      name: values.name ?? "",
      frequency: values.frequency ?? "",
      filters: priceInput(typed, PRICE_FILTERS),
    });
    return redirectWithMarketToast(request, "/buscas-salvas", "saved_searches.toasts.created");
  } catch (error) {
    return formError(request, error, values);
  }
}
