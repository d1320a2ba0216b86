import { removeSubscription } from "~/services/messaging/push.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** Stops pushes to one of the account's devices; 404 when it is not theirs. */
  DELETE: {
    ids: { id: "push_subscription_not_found" },
    message: "push_subscription_removed",
    handle: async ({ user, params }) => {
      await removeSubscription(user, params.id!);
      return {};
    },
  },
});
