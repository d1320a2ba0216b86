import type { UserRow } from "../../db/schema";
import { fixedT } from "~/services/platform/i18n.server";
import { getRequestT } from "./i18n.server";
import { queryFromUrl, reaisToCents, readWithoutRefused } from "./market-forms.server";
import { listOpportunities } from "~/services/marketplace/opportunities.server";

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
 * One page of the opportunity list for the URL's filters. A filter that is not valid is shown
 * with its message and left out, so the rest of the list still answers.
 */
export async function loadOpportunityList(user: UserRow, request: Request) {
  const filters = queryFromUrl(request, FILTER_FIELDS);
  const { lng, t } = await getRequestT(request);
  const errors: Record<string, string> = {};
  const { input: query, invalid } = reaisToCents(filters, PRICE_FILTERS);
  for (const field of invalid) errors[field] = fixedT(lng, "market")("filters.money_invalid");
  const { list, refused } = await readWithoutRefused(query, (q) => listOpportunities(user, q));
  for (const [field, key] of Object.entries(refused)) errors[field.replace(/_cents$/, "")] = t(key);
  return { ...list, filters, errors };
}
