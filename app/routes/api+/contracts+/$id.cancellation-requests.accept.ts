import { acceptCancellation, getContract } from "~/services/contracts/contracts.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The other side agrees to the cancellation asked for. */
  POST: {
    body: "none",
    ids: { id: "not_found" },
    message: "cancellation_accepted",
    handle: async ({ user, params }) => {
      await acceptCancellation(user, params.id);
      return { data: await getContract(user, params.id) };
    },
  },
});
