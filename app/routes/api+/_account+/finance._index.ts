import { getStatement } from "~/services/payments/finance.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The user's balances and ledger lines (`?page=`), newest first: /financeiro's data. */
  GET: { handle: async ({ user, query }) => ({ ...(await getStatement(user, query)) }) },
});
