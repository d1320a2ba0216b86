import { passkeySignInOptions } from "~/services/accounts/passkeys.server";
import { apiRoute } from "~/web/api-route.server";
import { clientOf } from "~/web/client.server";

export const { loader, action } = apiRoute({
  /**
   * The options for navigator.credentials.get (PublicKeyCredentialRequestOptionsJSON) → `{ options }`:
   * no account named (the passkey names it); the challenge holds 5 minutes, once. 429 past 120
   * an address in 15 minutes.
   */
  POST: {
    auth: "public",
    handle: async ({ request }) => ({ options: await passkeySignInOptions(await clientOf(request)) }),
  },
});
