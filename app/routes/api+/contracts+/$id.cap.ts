import { changeWeeklyCap } from "~/services/contracts/hourly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * The merchant changes an hourly contract's weekly cap: `{ weekly_cap_hours }` (1 to 60) →
   * `{ weekly_cap_minutes, from_week }`, the first week that takes it (weeks opened keep theirs).
   */
  POST: {
    ids: { id: "not_found" },
    message: "weekly_cap_changed",
    handle: async ({ user, params, body }) => ({ data: await changeWeeklyCap(user, params.id, body) }),
  },
});
