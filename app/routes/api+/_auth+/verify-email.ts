import { toUserJson } from "~/services/accounts/users.server";
import { verifyEmail } from "~/services/accounts/verification.server";
import { apiT } from "~/services/platform/i18n.server";
import { apiRoute } from "~/web/api-route.server";
import { getOptionalUser } from "~/web/session.server";

export const { loader, action } = apiRoute({
  /**
   * `{ token }` from a confirmation e-mail → the account with its address confirmed (or changed);
   * 422 for an unknown, used or expired link, 403 while signed in as another account.
   */
  POST: {
    auth: "public",
    body: "json",
    handle: async ({ request, body }) => {
      const { user, purpose } = await verifyEmail(body, await getOptionalUser(request));
      return {
        user: toUserJson(user),
        message: purpose === "change" ? apiT("email_changed", { email: user.email }) : apiT("email_verified"),
      };
    },
  },
});
