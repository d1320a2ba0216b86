import { closeOpportunity } from "~/services/marketplace/opportunities.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  POST: {
    may: "opportunity.manage",
    ids: { uuid: "not_found" },
    message: "opportunity_closed",
    handle: async ({ user, params }) => ({ data: await closeOpportunity(user, params.uuid) }),
  },
});
