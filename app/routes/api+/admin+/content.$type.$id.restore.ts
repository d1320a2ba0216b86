import { restoreContent } from "~/services/operator/reports.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `{ reason }` shows hidden content again (its author is told); 409 when it is not hidden. */
  POST: {
    auth: "operator",
    body: "json",
    ids: { id: "not_found" },
    message: "content_restored",
    handle: async ({ user, params, body }) => ({ data: await restoreContent(user, params.type!, params.id!, body) }),
  },
});
