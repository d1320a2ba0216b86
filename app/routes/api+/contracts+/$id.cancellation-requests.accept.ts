import { acceptCancellation } from "~/services/contracts/contracts.server";
import { apiRoute } from "~/web/api-route.server";
import { contractMove } from "~/web/contract-move.server";

export const { loader, action } = apiRoute({
  /** The other side agrees to the cancellation asked for. */
  POST: contractMove(({ user, params }) => acceptCancellation(user, params.id), { message: "cancellation_accepted" }),
});
