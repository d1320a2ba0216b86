import { createService, listServices } from "~/services/catalog/services.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The public catalogue, without signing in: filters, full-text `q`, sort and page. */
  GET: { auth: "public", handle: ({ query }) => listServices(query) },
  /** A freelancer saves a new service as a draft. */
  POST: {
    may: "service.manage",
    body: "json",
    status: 201,
    message: "services:service_created",
    handle: async ({ user, body }) => ({ data: await createService(user, body) }),
  },
});
