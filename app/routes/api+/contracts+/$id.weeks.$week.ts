import { getWeek } from "~/services/contracts/hourly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** One week (named by its Monday, YYYY-MM-DD) with its time entries. */
  GET: {
    ids: { id: "not_found" },
    handle: async ({ user, params }) => ({ data: await getWeek(user, params.id, params.week ?? "") }),
  },
});
