import { getMessageFile } from "~/services/messaging/messages.server";
import { attachmentResponse } from "~/services/platform/uploads.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** A message's file, for the application's two sides only (404 for anyone else). */
  GET: {
    ids: { id: "not_found", file: "not_found" },
    handle: async ({ user, params }) => attachmentResponse(await getMessageFile(user, params.id, params.file)),
  },
});
