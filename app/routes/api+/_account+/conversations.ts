import { listConversations } from "~/services/messaging/inbox.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `{ data, unread_conversations, meta }`, newest message first; `?filter=unread` for those with unread messages. */
  GET: { handle: ({ user, query }) => listConversations(user, query) },
});
