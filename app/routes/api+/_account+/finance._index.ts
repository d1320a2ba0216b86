import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, queryOf } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { getStatement } from "~/services/payments/finance.server";

/** The user's balances and ledger lines (`?page=`), newest first: /financeiro's data. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json(await getStatement(user, queryOf(request)));
});

export const action = methodNotAllowed;
