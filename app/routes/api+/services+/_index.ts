import { createService, listServices } from "~/services/catalog/services.server";
import { apiRoute } from "~/web/api-route.server";
import { getOptionalUser } from "~/web/session.server";

export const { loader, action } = apiRoute({
  /** The catalogue, signed in or not (visitors while public pages are on): filters, full-text `q`, sort and page. */
  GET: {
    auth: "public",
    handle: async ({ request, query }) => listServices(query, (await getOptionalUser(request)) ?? null),
  },
  /** A freelancer saves a new service as a draft. */
  POST: {
    may: "service.manage",
    body: "json",
    status: 201,
    message: "services:service_created",
    handle: async ({ user, body }) => ({ data: await createService(user, body) }),
  },
});
