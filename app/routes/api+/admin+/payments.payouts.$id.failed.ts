import { failPayout } from "~/services/operator/payments.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `{ reason }`: the transfer failed and the money returns to the balance; 409 once decided. */
  POST: {
    auth: "operator",
    body: "json",
    ids: { id: "not_found" },
    message: "payout_marked_failed",
    handle: async ({ user, params, body }) => ({ data: await failPayout(user, params.id, body) }),
  },
});
