import { listMyServices } from "~/services/catalog/services.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The freelancer's own services, every state: `{ data, meta }` (`page`, `per_page`). */
  GET: { may: "service.manage", handle: ({ user, query }) => listMyServices(user, query) },
});
