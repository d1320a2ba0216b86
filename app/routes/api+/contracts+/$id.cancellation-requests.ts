import { requestCancellation, getContract } from "~/services/contracts/contracts.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** After a delivery, one side asks to cancel: `{ reason }`. */
  POST: {
    body: "json",
    ids: { id: "not_found" },
    status: 201,
    message: "cancellation_requested",
    handle: async ({ user, params, body }) => {
      await requestCancellation(user, params.id, body);
      return { data: await getContract(user, params.id) };
    },
  },
});
