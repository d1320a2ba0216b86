import { deleteAccount } from "~/services/accounts/deletion.server";
import { apiRoute } from "~/web/api-route.server";
import { sessionCookie } from "~/web/session.server";

export const { loader, action } = apiRoute({
  /**
   * `{ password, code? }` → `{ deleted_at, message }`: the account is deleted (anonymised; see
   * docs/product.md, "Exclusão da conta") and every session of it ends, this one included. 422
   * wrong password or second factor (counted like a wrong sign-in; `code` is required when
   * two-factor is on); 403 an operator's account; 409 with the reason while a contract runs, a
   * dispute is open or money is held or owed, or when it was deleted meanwhile.
   */
  DELETE: {
    auth: "account",
    body: "json",
    message: "account_deleted",
    handle: async ({ user, body, headers }) => {
      const done = await deleteAccount(user, body);
      headers.set("Set-Cookie", await sessionCookie.serialize("", { maxAge: 0 }));
      return done;
    },
  },
});
