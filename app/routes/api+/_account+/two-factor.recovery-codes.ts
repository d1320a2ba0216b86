import { regenerateRecoveryCodes } from "~/services/accounts/two-factor.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * `{ password, code }` (a code of the app or a recovery code) → `{ recovery_codes }`: ten new
   * codes, shown this once; every earlier one stops working. 422 wrong password or code; 409 off.
   */
  POST: {
    auth: "account",
    body: "json",
    message: "recovery_codes_new",
    handle: async ({ user, body }) => await regenerateRecoveryCodes(user, body),
  },
});
