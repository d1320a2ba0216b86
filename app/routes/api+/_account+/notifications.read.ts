import { markNotificationsRead } from "~/services/messaging/notifications.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `{ ids? }`: those notifications, or all of them when no ids are sent. */
  POST: {
    body: "optional-json",
    message: "notifications_read",
    handle: async ({ user, body }) => {
      const { unread_count } = await markNotificationsRead(user, body.ids);
      return { unread_count };
    },
  },
});
