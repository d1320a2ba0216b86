import { withdrawApplication } from "~/services/marketplace/applications.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  POST: {
    may: "application.withdraw",
    body: "none",
    ids: { id: "not_found" },
    message: "application_withdrawn_done",
    handle: async ({ user, params }) => ({ data: await withdrawApplication(user, params.id) }),
  },
});
