import { logEntry } from "~/services/contracts/hourly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The freelancer logs time in an open week: `{ day, minutes, description }`. */
  POST: {
    ids: { id: "not_found" },
    body: "json",
    status: 201,
    message: "entry_logged",
    handle: async ({ user, params, body }) => ({ data: await logEntry(user, params.id, params.week ?? "", body) }),
  },
});
