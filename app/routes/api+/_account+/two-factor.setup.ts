import { startTwoFactor } from "~/services/accounts/two-factor.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * `{ password }` → 201 `{ data: { secret, otpauth_uri, qr_code } }` for the authenticator app; a new
   * call replaces an enrollment not yet confirmed. 422 wrong password; 409 already on.
   */
  POST: {
    auth: "account",
    body: "json",
    status: 201,
    message: "two_factor_setup_started",
    handle: async ({ user, body }) => ({ data: await startTwoFactor(user, body) }),
  },
});
