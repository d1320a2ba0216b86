import { openDispute } from "~/services/contracts/disputes.server";
import { apiRoute } from "~/web/api-route.server";
import { contractMove } from "~/web/contract-move.server";

export const { loader, action } = apiRoute({
  /**
   * Either side opens a dispute on a contract in progress or delivered: multipart `reason`,
   * `statement` and up to 10 `files`, or JSON `{ reason, statement }`. The contract is frozen
   * until an operator decides; 409 when it is not in progress or delivered, or already disputed.
   */
  POST: contractMove(({ user, params, body, files }) => openDispute(user, params.id, body, files), {
    body: "json-or-delivery",
    status: 201,
    message: "dispute_opened_done",
  }),
});
