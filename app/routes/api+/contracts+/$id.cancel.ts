import { cancelContract } from "~/services/contracts/contracts.server";
import { apiRoute } from "~/web/api-route.server";
import { contractMove } from "~/web/contract-move.server";

export const { loader, action } = apiRoute({
  /** Before any delivery, either side ends the contract: `{ reason }`. */
  POST: contractMove(({ user, params, body }) => cancelContract(user, params.id, body), {
    body: "json",
    message: "contract_cancelled_done",
  }),
});
