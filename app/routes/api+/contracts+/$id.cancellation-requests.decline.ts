import { declineCancellation } from "~/services/contracts/contracts.server";
import { apiRoute } from "~/web/api-route.server";
import { contractMove } from "~/web/contract-move.server";

export const { loader, action } = apiRoute({
  /** The other side refuses the cancellation asked for. */
  POST: contractMove(({ user, params }) => declineCancellation(user, params.id), { message: "cancellation_declined" }),
});
