import { unreadMessages } from "~/services/messaging/messages.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** Unread messages in all and per conversation (application id → count). */
  GET: { handle: ({ user }) => unreadMessages(user) },
});
