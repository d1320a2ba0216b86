import { identityForOperator } from "~/services/accounts/identity.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** One account's identity as typed, its state and the photos kept (files under /admin/identity/:id/files/:file). */
  GET: {
    auth: "operator",
    ids: { id: "not_found" },
    handle: async ({ params }) => ({ data: await identityForOperator(params.id) }),
  },
});
