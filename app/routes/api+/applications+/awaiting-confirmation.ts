import { listAwaitingConfirmation } from "~/services/marketplace/applications.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  GET: { handle: ({ user, query }) => listAwaitingConfirmation(user, query) },
});
