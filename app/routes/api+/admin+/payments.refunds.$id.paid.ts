import { payRefund } from "~/services/operator/payments.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `{ e2e_id }`: the refund was paid back to the merchant by Pix; 409 once recorded. */
  POST: {
    auth: "operator",
    body: "json",
    ids: { id: "not_found" },
    message: "refund_recorded",
    handle: async ({ user, params, body }) => ({ data: await payRefund(user, params.id, body) }),
  },
});
