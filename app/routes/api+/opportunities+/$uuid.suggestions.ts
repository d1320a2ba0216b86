import { suggestionsFor } from "~/services/discovery/matches.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The owner's suggested freelancers to invite: `{ data }` (public profiles with `skills_in_common`). */
  GET: { ids: { uuid: "not_found" }, handle: ({ user, params }) => suggestionsFor(user, params.uuid) },
});
