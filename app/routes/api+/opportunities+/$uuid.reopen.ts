import { reopenOpportunity } from "~/services/marketplace/opportunities.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  POST: {
    may: "opportunity.manage",
    ids: { uuid: "not_found" },
    message: "opportunity_reopened",
    handle: async ({ user, params }) => ({ data: await reopenOpportunity(user, params.uuid) }),
  },
});
