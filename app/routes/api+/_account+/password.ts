import { changePassword } from "~/services/accounts/password-change.server";
import { apiRoute } from "~/web/api-route.server";
import { getRequestToken } from "~/web/session.server";

export const { loader, action } = apiRoute({
  /**
   * `{ password, new_password }` → `{ ended, message }`: the password changes and every other
   * session of the account ends (`ended` of them). 422 wrong current password (counted like a
   * wrong sign-in) or a new one outside the rule or equal to the current one; 409 changed meanwhile.
   */
  POST: {
    auth: "account",
    body: "json",
    message: "password_changed",
    handle: async ({ request, user, body }) => await changePassword(user, body, await getRequestToken(request)),
  },
});
