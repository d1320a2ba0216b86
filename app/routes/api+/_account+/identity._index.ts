import { getIdentity, saveIdentity } from "~/services/accounts/identity.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The account's own fiscal identity and its verification (`data: null` before one is recorded). */
  GET: { handle: async ({ user }) => ({ data: await getIdentity(user) }) },
  /**
   * `{ kind: person|company, document, legal_name, birth_date (person), responsible_cpf (company) }`:
   * check digits; 409 when another active account holds the document.
   */
  POST: {
    body: "json",
    message: "identity_saved",
    handle: async ({ user, body }) => ({ data: await saveIdentity(user, body) }),
  },
});
