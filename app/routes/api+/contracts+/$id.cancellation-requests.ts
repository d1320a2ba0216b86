import { requestCancellation } from "~/services/contracts/contracts.server";
import { apiRoute } from "~/web/api-route.server";
import { contractMove } from "~/web/contract-move.server";

export const { loader, action } = apiRoute({
  /** After a delivery, one side asks to cancel: `{ reason }`. */
  POST: contractMove(({ user, params, body }) => requestCancellation(user, params.id, body), {
    body: "json",
    status: 201,
    message: "cancellation_requested",
  }),
});
