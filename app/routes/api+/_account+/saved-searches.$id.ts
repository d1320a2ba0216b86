import { deleteSavedSearch, getSavedSearch, updateSavedSearch } from "~/services/discovery/saved-searches.server";
import { apiRoute } from "~/web/api-route.server";

const ids = { id: "saved_search_not_found" };

export const { loader, action } = apiRoute({
  /** One of the freelancer's saved searches; 404 when it is not theirs. */
  GET: {
    may: "saved_search.manage",
    ids,
    handle: async ({ user, params }) => ({ data: await getSavedSearch(user, params.id!) }),
  },
  /** `{ name?, frequency? }`; a new frequency counts its period from now. 404 when not theirs. */
  PATCH: {
    may: "saved_search.manage",
    ids,
    body: "json",
    message: "saved_search_updated",
    handle: async ({ user, params, body }) => ({ data: await updateSavedSearch(user, params.id!, body) }),
  },
  DELETE: {
    may: "saved_search.manage",
    ids,
    message: "saved_search_deleted",
    handle: async ({ user, params }) => {
      await deleteSavedSearch(user, params.id!);
      return {};
    },
  },
});
