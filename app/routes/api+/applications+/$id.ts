import { getApplication } from "~/services/marketplace/applications.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** Participants only; anyone else gets 404. Offers oldest first. */
  GET: {
    ids: { id: "not_found" },
    handle: async ({ user, params }) => ({ data: await getApplication(user, params.id) }),
  },
});
