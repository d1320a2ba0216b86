import { listMyNotas } from "~/services/fiscal/nota-views.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The user's notas (`?page=`), newest first: a freelancer's fee notas and own notas, a merchant's notas from freelancers. */
  GET: { handle: async ({ user, query }) => ({ ...(await listMyNotas(user, query)) }) },
});
