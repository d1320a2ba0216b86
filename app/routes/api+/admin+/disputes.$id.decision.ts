import { decideDispute } from "~/services/operator/disputes.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * `{ decision: complete|cancel, reason }` decides the dispute, for good; 409 when it was
   * decided already (another operator first).
   */
  POST: {
    auth: "operator",
    body: "json",
    ids: { id: "not_found" },
    message: "dispute_decided_done",
    handle: async ({ user, params, body }) => ({ data: await decideDispute(user, params.id, body) }),
  },
});
