import { getOrderFile } from "~/services/catalog/orders.server";
import { attachmentResponse } from "~/services/platform/uploads.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** A file answering an order's question, for the contract's two sides only (404 for anyone else). */
  GET: {
    ids: { id: "not_found", file: "not_found" },
    handle: async ({ user, params }) => attachmentResponse(await getOrderFile(user, params.id, params.file)),
  },
});
