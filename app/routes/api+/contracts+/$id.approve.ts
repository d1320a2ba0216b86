import { approveContract } from "~/services/contracts/contracts.server";
import { apiRoute } from "~/web/api-route.server";
import { contractMove } from "~/web/contract-move.server";

export const { loader, action } = apiRoute({
  /** The merchant approves the delivery: the contract is completed. */
  POST: contractMove(({ user, params }) => approveContract(user, params.id), { message: "contract_approved" }),
});
