import { requestChanges } from "~/services/contracts/contracts.server";
import { apiRoute } from "~/web/api-route.server";
import { contractMove } from "~/web/contract-move.server";

export const { loader, action } = apiRoute({
  /** The merchant asks for changes: `{ message }`. */
  POST: contractMove(({ user, params, body }) => requestChanges(user, params.id, body), {
    body: "json",
    status: 201,
    message: "changes_requested_done",
  }),
});
