import { listHeldOpportunities } from "~/services/operator/premoderation.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The opportunities waiting for an operator, oldest first. */
  GET: { auth: "operator", handle: ({ query }) => listHeldOpportunities(query) },
});
