import { listSubscriptions, subscribe } from "~/services/messaging/push.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The account's devices that get push notifications: `{ data: [{ id, service, user_agent, created_at, last_sent_at }] }`. */
  GET: { handle: async ({ user }) => ({ data: await listSubscriptions(user) }) },
  /**
   * `{ endpoint, keys: { p256dh, auth } }` (PushSubscription.toJSON()) → 201 `{ data }`; the same
   * endpoint again updates it. 422 per field (endpoint, p256dh, auth), 409 when another account has
   * it or past 10 devices.
   */
  POST: {
    body: "json",
    status: 201,
    message: "push_subscribed",
    handle: async ({ request, user, body }) => ({
      data: await subscribe(user, body, request.headers.get("User-Agent")),
    }),
  },
});
