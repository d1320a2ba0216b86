import { answerOrder } from "~/services/catalog/orders.server";
import { apiRoute } from "~/web/api-route.server";
import { contractMove } from "~/web/contract-move.server";

export const { loader, action } = apiRoute({
  /** The buyer answers the service's questions (or corrects them) until the first delivery: `{ answers: [...] }`. */
  POST: contractMove(({ user, params, body }) => answerOrder(user, params.id, body), {
    body: "json",
    message: "services:order_answered",
  }),
});
