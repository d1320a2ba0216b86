import { submitWeek } from "~/services/contracts/hourly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The freelancer sends the open week to the merchant's review. */
  POST: {
    ids: { id: "not_found" },
    message: "week_submitted",
    handle: async ({ user, params }) => ({ data: await submitWeek(user, params.id, params.week ?? "") }),
  },
});
