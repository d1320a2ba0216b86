import { getReceipt } from "~/services/payments/finance.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The receipt of one of the user's payments or payouts (404 for anyone else's). */
  GET: { ids: { id: "not_found" }, handle: async ({ user, params }) => ({ data: await getReceipt(user, params.id) }) },
});
