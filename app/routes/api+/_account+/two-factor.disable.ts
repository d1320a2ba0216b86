import { disableTwoFactor } from "~/services/accounts/two-factor.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `{ password, code }` (a code of the app or a recovery code) → two-factor off. 422 wrong password or code; 409 not on. */
  POST: {
    auth: "account",
    body: "json",
    message: "two_factor_off",
    handle: async ({ user, body }) => {
      await disableTwoFactor(user, body);
      return {};
    },
  },
});
