import { decideHeldOpportunity } from "~/services/operator/premoderation.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `{ decision: approve|reject, reason? }` (a refusal needs a reason); 409 once decided. */
  POST: {
    auth: "operator",
    body: "json",
    ids: { uuid: "not_found" },
    message: "premoderation_decided",
    handle: async ({ user, params, body }) => ({ data: await decideHeldOpportunity(user, params.uuid!, body) }),
  },
});
