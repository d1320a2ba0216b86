import { resumeHourlyContract } from "~/services/contracts/hourly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * Either side resumes a paused hourly contract: `{ hourly_paused_from: null, opened_week }`,
   * the week opened now waiting for its money (null: the week in hand goes on).
   */
  POST: {
    ids: { id: "not_found" },
    message: "hourly_resumed",
    handle: async ({ user, params }) => ({ data: await resumeHourlyContract(user, params.id) }),
  },
});
