import { rejectApplication } from "~/services/marketplace/applications.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The merchant declines, optionally with `{ message }`. */
  POST: {
    may: "application.reject",
    body: "optional-json",
    ids: { id: "not_found" },
    message: "application_rejected_done",
    handle: async ({ user, params, body }) => ({ data: await rejectApplication(user, params.id, body) }),
  },
});
