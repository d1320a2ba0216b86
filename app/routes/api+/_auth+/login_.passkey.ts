import { signInWithPasskey } from "~/services/accounts/passkeys.server";
import { displayNameOf, toUserJson } from "~/services/accounts/users.server";
import { apiT } from "~/services/platform/i18n.server";
import { apiRoute } from "~/web/api-route.server";
import { clientOf } from "~/web/client.server";

export const { loader, action } = apiRoute({
  /**
   * `{ response }`: the browser's answer (navigator.credentials.get) to the options of
   * POST /api/login/passkey/options → a Bearer token, as POST /api/login (no second step: the
   * passkey is both factors). 401 for an unknown passkey, a spent or expired challenge, a
   * signature that does not verify, or a counter that did not grow (a cloned authenticator);
   * 403 for a suspended or banned account.
   */
  POST: {
    auth: "public",
    body: "json",
    handle: async ({ request, body }) => {
      const { user, token, expiresAt } = await signInWithPasskey(body, await clientOf(request));
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
