import { centsToInput } from "./money";

/** A saved search's filters as the API and the database keep them (prices in centavos). */
export type SavedFilters = {
  q?: string;
  category?: string;
  budget_type?: string;
  location_type?: string;
  budget_min_cents?: number;
  budget_max_cents?: number;
};

/**
 * The opportunity list's URL for a saved search's filters ("ver resultados"): the page's own
 * parameters, prices back in reais as its filter fields take them.
 */
export function savedSearchListPath(filters: SavedFilters): string {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  if (filters.category) params.set("category", filters.category);
  if (filters.budget_type) params.set("budget_type", filters.budget_type);
  if (filters.location_type) params.set("location_type", filters.location_type);
  if (filters.budget_min_cents !== undefined) params.set("budget_min", centsToInput(filters.budget_min_cents));
  if (filters.budget_max_cents !== undefined) params.set("budget_max", centsToInput(filters.budget_max_cents));
  const query = params.toString();
  return query ? `/opportunities?${query}` : "/opportunities";
}
