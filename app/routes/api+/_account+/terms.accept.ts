import { acceptTerms } from "~/services/accounts/terms.server";
import { apiRoute } from "~/web/api-route.server";
import { clientOf } from "~/web/client.server";

export const { loader, action } = apiRoute({
  /**
   * `{ version }` (the one read, from GET /api/terms) → the account accepts the current terms and
   * privacy policy; 409 when the version is no longer the current one, 422 without it. Accepting
   * again changes nothing.
   */
  POST: {
    auth: "account",
    body: "json",
    message: "terms_accepted",
    handle: async ({ request, user, body }) => ({ data: await acceptTerms(user, body, await clientOf(request)) }),
  },
});
