import { listNotifications } from "~/services/messaging/notifications.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `{ data, unread_count, meta }`, newest first; `?unread=1` for the unread ones only. */
  GET: { handle: ({ user, query }) => listNotifications(user, query) },
});
