import { sanctionUser } from "~/services/operator/sanctions.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `{ action: warn|suspend|ban|lift, reason, days? }`; 409 when the person's standing changed first. */
  POST: {
    auth: "operator",
    body: "json",
    ids: { id: "user_not_found" },
    message: "sanction_applied",
    handle: async ({ user, params, body }) => ({ data: await sanctionUser(user, params.id!, body) }),
  },
});
