import { listWeeks } from "~/services/contracts/hourly.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** An hourly contract's weeks, newest first, each with its money and the moves open to the user. */
  GET: { ids: { id: "not_found" }, handle: async ({ user, params }) => ({ data: await listWeeks(user, params.id) }) },
});
