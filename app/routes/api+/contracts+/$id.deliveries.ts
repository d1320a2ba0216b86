import { deliverContract } from "~/services/contracts/contracts.server";
import { apiRoute } from "~/web/api-route.server";
import { contractMove } from "~/web/contract-move.server";

export const { loader, action } = apiRoute({
  /**
   * The freelancer delivers: multipart `message` and up to 10 `files` (10 MB each, 50 MB in all),
   * or JSON `{ message }` for a delivery without files.
   */
  POST: contractMove(({ user, params, body, files }) => deliverContract(user, params.id, body, files), {
    body: "json-or-delivery",
    status: 201,
    message: "delivery_sent",
  }),
});
