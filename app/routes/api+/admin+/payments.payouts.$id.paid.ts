import { payPayout } from "~/services/operator/payments.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `{ e2e_id }`: the payout was sent by Pix; 409 once paid or failed. */
  POST: {
    auth: "operator",
    body: "json",
    ids: { id: "not_found" },
    message: "payout_marked_paid",
    handle: async ({ user, params, body }) => ({ data: await payPayout(user, params.id, body) }),
  },
});
