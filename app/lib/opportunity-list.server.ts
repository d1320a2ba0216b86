import type { UserRow } from "../../db/schema";
import { AppError } from "~/services/errors.server";
import { fixedT, getRequestT } from "~/services/i18n.server";
import { listOpportunities } from "~/services/opportunities.server";
import { parseMoney } from "./money";

/** The filters a list page reads from its URL; prices are in reais, as the visitor typed them. */
export const FILTER_FIELDS = ["q", "category", "budget_type", "location_type", "status", "budget_min", "budget_max", "sort", "page"] as const;

/**
 * One page of the opportunity list for the URL's filters. A filter that is not valid is shown
 * with its message and left out, so the rest of the list still answers.
 */
export async function loadOpportunityList(user: UserRow, request: Request) {
  const params = new URL(request.url).searchParams;
  const filters: Record<string, string> = {};
  for (const field of FILTER_FIELDS) {
    const value = params.get(field);
    if (value) filters[field] = value;
  }
  const { lng, t } = await getRequestT(request);
  const errors: Record<string, string> = {};
  const query: Record<string, unknown> = { ...filters };
  for (const field of ["budget_min", "budget_max"] as const) {
    delete query[field];
    if (!filters[field]) continue;
    const cents = parseMoney(filters[field]);
    if (cents === null) errors[field] = fixedT(lng, "market")("filters.money_invalid");
    else query[`${field}_cents`] = cents;
  }
  for (let attempt = 0; ; attempt++) {
    try {
      const list = await listOpportunities(user, query);
      return { ...list, filters, errors };
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 422 || !error.fieldErrors || attempt > 0) throw error;
      for (const [field, key] of Object.entries(error.fieldErrors)) {
        const pageField = field.replace(/_cents$/, "");
        errors[pageField] = t(key);
        delete query[field];
      }
    }
  }
}
