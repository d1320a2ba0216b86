import { cancelContract, getContract } from "~/services/contracts/contracts.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** Before any delivery, either side ends the contract: `{ reason }`. */
  POST: {
    body: "json",
    ids: { id: "not_found" },
    message: "contract_cancelled_done",
    handle: async ({ user, params, body }) => {
      await cancelContract(user, params.id, body);
      return { data: await getContract(user, params.id) };
    },
  },
});
