import { addDisputeStatement } from "~/services/contracts/disputes.server";
import { apiRoute } from "~/web/api-route.server";
import { contractMove } from "~/web/contract-move.server";

export const { loader, action } = apiRoute({
  /** Either side adds a statement to the open dispute: multipart `statement` and `files`, or JSON. */
  POST: contractMove(({ user, params, body, files }) => addDisputeStatement(user, params.id, body, files), {
    body: "json-or-delivery",
    status: 201,
    message: "dispute_statement_done",
  }),
});
