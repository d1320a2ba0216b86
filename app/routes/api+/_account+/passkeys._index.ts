import { addPasskey, listPasskeys } from "~/services/accounts/passkeys.server";
import { apiRoute } from "~/web/api-route.server";
import { clientOf } from "~/web/client.server";

export const { loader, action } = apiRoute({
  /** The account's passkeys: `{ data: [{ id, name, created_at, last_used_at }] }`, oldest first. */
  GET: { auth: "account", handle: async ({ user }) => ({ data: await listPasskeys(user) }) },
  /**
   * `{ response, name? }`: the browser's answer (navigator.credentials.create, as
   * @simplewebauthn/browser gives it) to the options of POST /api/passkeys/options → 201 `{ data }`.
   * 422 when it does not verify or its challenge is not this account's, live and unused; 409 when
   * the passkey is registered already.
   */
  POST: {
    auth: "account",
    body: "json",
    status: 201,
    message: "passkey_added",
    handle: async ({ request, user, body }) => ({ data: await addPasskey(user, body, await clientOf(request)) }),
  },
});
