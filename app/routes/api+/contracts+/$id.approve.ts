import { approveContract, getContract } from "~/services/contracts/contracts.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The merchant approves the delivery: the contract is completed. */
  POST: {
    body: "none",
    ids: { id: "not_found" },
    message: "contract_approved",
    handle: async ({ user, params }) => {
      await approveContract(user, params.id);
      return { data: await getContract(user, params.id) };
    },
  },
});
