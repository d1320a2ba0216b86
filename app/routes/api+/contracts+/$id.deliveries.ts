import { deliverContract, getContract } from "~/services/contracts/contracts.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * The freelancer delivers: multipart `message` and up to 10 `files` (10 MB each, 50 MB in all),
   * or JSON `{ message }` for a delivery without files.
   */
  POST: {
    body: "json-or-files",
    ids: { id: "not_found" },
    status: 201,
    message: "delivery_sent",
    handle: async ({ user, params, body, files }) => {
      await deliverContract(user, params.id, body, files);
      return { data: await getContract(user, params.id) };
    },
  },
});
