import { confirmTwoFactor } from "~/services/accounts/two-factor.server";
import { apiRoute } from "~/web/api-route.server";
import { getRequestToken } from "~/web/session.server";

export const { loader, action } = apiRoute({
  /**
   * `{ code }` (from the app) → `{ recovery_codes }`, shown this once; two-factor is on and every
   * other session ends. 422 wrong code; 409 not started or already on.
   */
  POST: {
    auth: "account",
    body: "json",
    message: "two_factor_on",
    handle: async ({ request, user, body }) => await confirmTwoFactor(user, body, await getRequestToken(request)),
  },
});
