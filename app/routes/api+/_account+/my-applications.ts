import { listMyApplications } from "~/services/marketplace/applications.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  GET: { may: "applications.mine", handle: ({ user, query }) => listMyApplications(user, query) },
});
