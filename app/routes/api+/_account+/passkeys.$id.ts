import { removePasskey, renamePasskey } from "~/services/accounts/passkeys.server";
import { apiRoute } from "~/web/api-route.server";
import { getRequestToken } from "~/web/session.server";

export const { loader, action } = apiRoute({
  /** `{ name }` (1 to 60 characters); 404 when the passkey is not the account's. */
  PATCH: {
    auth: "account",
    body: "json",
    message: "passkey_renamed",
    handle: async ({ user, params, body }) => {
      await renamePasskey(user, params.id ?? "", body);
      return {};
    },
  },
  /** Removes it (and ends the other sessions opened with it); 404 when it is not the account's. */
  DELETE: {
    auth: "account",
    message: "passkey_removed",
    handle: async ({ request, user, params }) => {
      await removePasskey(user, params.id ?? "", await getRequestToken(request));
      return {};
    },
  },
});
