import { getContract } from "~/services/contracts/contracts.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** Its two sides only; anyone else gets 404. The timeline oldest first, and the moves open now. */
  GET: { ids: { id: "not_found" }, handle: async ({ user, params }) => ({ data: await getContract(user, params.id) }) },
});
