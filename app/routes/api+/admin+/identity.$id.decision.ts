import { decideIdentity } from "~/services/accounts/identity.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `{ decision: approve|reject, version, reason (reject) }`: 409 when decided or changed meanwhile. */
  POST: {
    auth: "operator",
    body: "json",
    ids: { id: "not_found" },
    message: "identity_decision_saved",
    handle: async ({ user, params, body }) => ({ data: await decideIdentity(user, params.id, body) }),
  },
});
