import { answerOrderFile } from "~/services/catalog/orders.server";
import { apiRoute } from "~/web/api-route.server";
import { contractMove } from "~/web/contract-move.server";

export const { loader, action } = apiRoute({
  /**
   * The buyer answers a question of kind file until the first delivery: multipart `question` (its
   * index) and one file in `files` (10 MB at most); a new file replaces the last. `{ data: order }`.
   */
  POST: contractMove(({ user, params, body, files }) => answerOrderFile(user, params.id, body, files[0]), {
    body: "json-or-delivery",
    message: "services:order_file_sent",
  }),
});
