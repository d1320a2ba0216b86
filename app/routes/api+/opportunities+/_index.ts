import { createOpportunity, listOpportunities } from "~/services/marketplace/opportunities.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** Filters, full-text `q`, sort and pagination. */
  GET: { handle: ({ user, query }) => listOpportunities(user, query) },
  /** Merchants publish. */
  POST: {
    may: "opportunity.create",
    body: "json",
    status: 201,
    message: "opportunity_created",
    handle: async ({ user, body }) => ({ data: await createOpportunity(user, body) }),
  },
});
