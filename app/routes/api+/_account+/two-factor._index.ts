import { twoFactorState } from "~/services/accounts/two-factor.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `{ enabled, pending, recovery_codes_left }`. */
  GET: { auth: "account", handle: async ({ user }) => ({ data: await twoFactorState(user) }) },
});
