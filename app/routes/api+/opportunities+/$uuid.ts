import { deleteOpportunity, getOpportunity, updateOpportunity } from "~/services/marketplace/opportunities.server";
import { apiRoute } from "~/web/api-route.server";

const ids = { uuid: "not_found" };

export const { loader, action } = apiRoute({
  GET: { ids, handle: async ({ user, params }) => ({ data: await getOpportunity(user, params.uuid) }) },
  /** Partial update by the owner while open. */
  PATCH: {
    may: "opportunity.manage",
    body: "json",
    ids,
    message: "opportunity_updated",
    handle: async ({ user, params, body }) => ({ data: await updateOpportunity(user, params.uuid, body) }),
  },
  /** Only with no applications. */
  DELETE: {
    may: "opportunity.manage",
    ids,
    message: "opportunity_deleted",
    handle: async ({ user, params }) => {
      await deleteOpportunity(user, params.uuid);
      return {};
    },
  },
});
