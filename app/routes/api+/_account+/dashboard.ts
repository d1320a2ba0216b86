import { getDashboard } from "~/services/marketplace/dashboard.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  GET: { handle: async ({ user }) => ({ data: await getDashboard(user) }) },
});
