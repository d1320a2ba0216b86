import { listAdminNotas } from "~/services/fiscal/nota-views.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The notas' queue, newest first: `?status=&kind=&issuer=platform|freelancers&from=&to=&page=`, with counts per status. */
  GET: { auth: "operator", handle: async ({ query }) => ({ ...(await listAdminNotas(query)) }) },
});
