import { getContractFile } from "~/services/contracts/contracts.server";
import { attachmentResponse } from "~/services/platform/uploads.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** A delivered file, for the contract's two sides only (404 for anyone else). */
  GET: {
    ids: { id: "not_found", file: "not_found" },
    handle: async ({ user, params }) => attachmentResponse(await getContractFile(user, params.id, params.file)),
  },
});
