import { setKeepUnused } from "~/services/contracts/hourly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * The merchant chooses what an hourly contract's approved week does with its unused money:
   * `{ keep: true }` keeps it for the next week waiting for its money, `{ keep: false }` refunds
   * it (the default) → `{ hourly_keep_unused }`.
   */
  POST: {
    ids: { id: "not_found" },
    message: "keep_unused_changed",
    handle: async ({ user, params, body }) => ({ data: await setKeepUnused(user, params.id, body) }),
  },
});
