import { listMessages, sendMessage } from "~/services/messaging/messages.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The conversation, oldest first (the two sides only); reading it marks it read. */
  GET: { ids: { id: "not_found" }, handle: ({ user, params }) => listMessages(user, params.id) },
  /** Multipart `body` and up to 5 `files` (10 MB each), or JSON `{ body }`. */
  POST: {
    body: "json-or-message",
    ids: { id: "not_found" },
    status: 201,
    message: "message_sent",
    handle: async ({ user, params, body, files }) => ({ data: await sendMessage(user, params.id, body, files) }),
  },
});
