import { getEntryFile } from "~/services/contracts/entry-files.server";
import { attachmentResponse } from "~/services/platform/uploads.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** A time entry's file, for the contract's two sides only (404 for anyone else, or without one). */
  GET: {
    ids: { id: "not_found", entry: "not_found" },
    handle: async ({ user, params }) => attachmentResponse(await getEntryFile(user, params.id, params.entry)),
  },
});
