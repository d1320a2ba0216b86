import { passkeyRegistrationOptions } from "~/services/accounts/passkeys.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * `{ password, code? }` (the current password, and a code when two-factor is on) → the options
   * for navigator.credentials.create (PublicKeyCredentialCreationOptionsJSON) as `{ options }`;
   * their challenge holds 5 minutes, once, for this account. 422 without the proof (a wrong one
   * counts like a wrong sign-in); 409 at 10 passkeys.
   */
  POST: {
    auth: "account",
    body: "json",
    handle: async ({ user, body }) => ({ options: await passkeyRegistrationOptions(user, body) }),
  },
});
