import { moderateService } from "~/services/catalog/services.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `{ action: approve|hide|restore, reason? }` (hiding and restoring need a reason); 409 when the state moved on. */
  POST: {
    auth: "operator",
    body: "json",
    ids: { id: "not_found" },
    message: "services:service_moderated",
    handle: async ({ user, params, body }) => ({ data: await moderateService(user, params.id!, body) }),
  },
});
