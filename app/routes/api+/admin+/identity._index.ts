import { identityQueue, recentConflicts } from "~/services/accounts/identity.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** Identities waiting for a decision, oldest first, and documents refused as another account's. */
  GET: {
    auth: "operator",
    handle: async () => ({ data: await identityQueue(), conflicts: await recentConflicts() }),
  },
});
