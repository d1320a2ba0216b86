import { declineCancellation, getContract } from "~/services/contracts/contracts.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The other side refuses the cancellation asked for. */
  POST: {
    body: "none",
    ids: { id: "not_found" },
    message: "cancellation_declined",
    handle: async ({ user, params }) => {
      await declineCancellation(user, params.id);
      return { data: await getContract(user, params.id) };
    },
  },
});
