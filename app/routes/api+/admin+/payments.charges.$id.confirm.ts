import { confirmPixReceipt } from "~/services/operator/payments.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * `{ e2e_id, amount_cents }` confirms a manual Pix receipt (the amount must be the charge's:
   * 422); 409 when the charge was paid already or the end-to-end id was used.
   */
  POST: {
    auth: "operator",
    body: "json",
    ids: { id: "not_found" },
    message: "receipt_confirmed",
    handle: async ({ user, params, body }) => ({ data: await confirmPixReceipt(user, params.id, body) }),
  },
});
