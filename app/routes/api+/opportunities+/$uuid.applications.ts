import { applyToOpportunity, listOpportunityApplications } from "~/services/marketplace/applications.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The owner lists the applications (`?status=`); anyone else gets 403 (role) or 404. */
  GET: {
    may: "opportunity.applications",
    ids: { uuid: "not_found" },
    handle: ({ user, params, query }) => listOpportunityApplications(user, params.uuid, query),
  },
  /** A freelancer applies. */
  POST: {
    may: "application.apply",
    body: "json",
    ids: { uuid: "not_found" },
    status: 201,
    message: "application_sent",
    handle: async ({ user, params, body }) => ({ data: await applyToOpportunity(user, params.uuid, body) }),
  },
});
