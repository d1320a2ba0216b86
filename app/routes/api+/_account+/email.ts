import { requestEmailChange } from "~/services/accounts/verification.server";
import { apiT } from "~/services/platform/i18n.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * `{ email, password }`: a link goes to the new address; the account's e-mail changes when it is
   * opened (POST /api/verify-email), and the old address is told. 422 for a wrong password.
   */
  POST: {
    body: "json",
    status: 202,
    handle: async ({ user, body }) => {
      const { email } = await requestEmailChange(user, body);
      return { message: apiT("email_change_sent", { email }) };
    },
  },
});
