import { passkeyRegistrationOptions } from "~/services/accounts/passkeys.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * The options for navigator.credentials.create (PublicKeyCredentialCreationOptionsJSON) →
   * `{ options }`; their challenge holds 5 minutes, once, for this account. 409 at 10 passkeys.
   */
  POST: {
    auth: "account",
    handle: async ({ user }) => ({ options: await passkeyRegistrationOptions(user) }),
  },
});
