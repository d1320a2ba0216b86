import { approveWeek } from "~/services/contracts/hourly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The merchant approves the submitted week: its minutes' money released, the rest refunded. */
  POST: {
    ids: { id: "not_found" },
    message: "week_approved",
    handle: async ({ user, params }) => ({ data: await approveWeek(user, params.id, params.week ?? "") }),
  },
});
