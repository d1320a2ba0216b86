import { createSavedSearch, listSavedSearches } from "~/services/discovery/saved-searches.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The freelancer's saved searches, newest first: `{ data: [{ id, name, filters, frequency, … }] }`. */
  GET: { may: "saved_search.manage", handle: async ({ user }) => ({ data: await listSavedSearches(user) }) },
  /**
   * `{ name, frequency, filters }` → 201 `{ data }`. `filters` holds the opportunity list's own
   * query (q, category, budget_type, location_type, budget_min_cents, budget_max_cents); 422 per
   * field, 409 past 20 searches.
   */
  POST: {
    may: "saved_search.manage",
    body: "json",
    status: 201,
    message: "saved_search_created",
    handle: async ({ user, body }) => ({ data: await createSavedSearch(user, body) }),
  },
});
