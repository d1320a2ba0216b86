import { pauseHourlyContract } from "~/services/contracts/hourly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * Either side pauses an hourly contract from the next week (the week in hand goes on to its
   * end): `{ hourly_paused_from, opened_week: null }`, the first week that does not open.
   */
  POST: {
    ids: { id: "not_found" },
    message: "hourly_paused",
    handle: async ({ user, params }) => ({ data: await pauseHourlyContract(user, params.id) }),
  },
});
