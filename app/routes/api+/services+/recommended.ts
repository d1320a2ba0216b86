import { recommendedServices } from "~/services/discovery/matches.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** "Para você" for a merchant: published services ranked by what they share with the merchant's opportunities; `{ data, meta }`. */
  GET: { handle: ({ user, query }) => recommendedServices(user, query) },
});
