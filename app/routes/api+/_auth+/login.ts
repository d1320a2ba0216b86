import { json } from "@remix-run/node";
import { login } from "~/services/accounts/accounts.server";
import { completeTwoFactorLogin } from "~/services/accounts/two-factor.server";
import { displayNameOf, toUserJson } from "~/services/accounts/users.server";
import { apiT } from "~/services/platform/i18n.server";
import { apiRoute } from "~/web/api-route.server";
import { clientOf } from "~/web/client.server";

type Session = Awaited<ReturnType<typeof completeTwoFactorLogin>>;

const signedIn = ({ user, token, expiresAt }: Session) => ({
  access_token: token,
  token_type: "Bearer",
  expires_at: expiresAt,
  user: toUserJson(user),
  message: apiT("welcome_back", { name: displayNameOf(user) }),
});

export const { loader, action } = apiRoute({
  /**
   * `{ email, password }` → a Bearer token; failures are rate limited by e-mail and address. With
   * two-factor on, the answer is 202 `{ two_factor_required: true, methods, challenge }`, and the
   * second call `{ challenge, code }` (a code of the app or a recovery code) gives the token.
   */
  POST: {
    auth: "public",
    body: "json",
    handle: async ({ request, body }) => {
      const client = await clientOf(request);
      if ("challenge" in body) {
        return signedIn(await completeTwoFactorLogin(body, client));
      }
      const result = await login(body, client);
      if (result.twoFactor) {
        return json(
          {
            two_factor_required: true,
            methods: ["totp", "recovery_code"],
            challenge: result.twoFactor.challenge,
            expires_at: result.twoFactor.expires_at,
            message: apiT("two_factor_needed"),
          },
          { status: 202 },
        );
      }
      return signedIn(result);
    },
  },
});
