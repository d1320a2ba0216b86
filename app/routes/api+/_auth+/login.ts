import { login } from "~/services/accounts/accounts.server";
import { displayNameOf, toUserJson } from "~/services/accounts/users.server";
import { apiT } from "~/services/platform/i18n.server";
import { apiRoute } from "~/web/api-route.server";
import { clientOf } from "~/web/client.server";

export const { loader, action } = apiRoute({
  /** `{ email, password }` → a Bearer token; failures are rate limited by e-mail and address. */
  POST: {
    auth: "public",
    body: "json",
    handle: async ({ request, body }) => {
      const { user, token, expiresAt } = await login(body, await clientOf(request));
      return {
        access_token: token,
        token_type: "Bearer",
        expires_at: expiresAt,
        user: toUserJson(user),
        message: apiT("welcome_back", { name: displayNameOf(user) }),
      };
    },
  },
});
