import { recommendedOpportunities } from "~/services/discovery/matches.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** "Para você": open opportunities ranked by what they share with the freelancer; `{ data, meta }`. */
  GET: { handle: ({ user, query }) => recommendedOpportunities(user, query) },
});
