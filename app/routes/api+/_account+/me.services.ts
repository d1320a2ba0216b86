import { listMyServices } from "~/services/catalog/services.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The freelancer's own services, every state: `{ data }`. */
  GET: { may: "service.manage", handle: ({ user }) => listMyServices(user) },
});
