import { vapidKeys } from "~/services/messaging/push.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * `{ key }`: the server's VAPID public key (base64url), the `applicationServerKey` a browser
   * subscribes with. The same for everyone, so public.
   */
  GET: {
    auth: "public",
    handle: async () => ({ key: (await vapidKeys()).publicKey }),
  },
});
