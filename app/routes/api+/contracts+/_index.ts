import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, queryOf } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { listContracts } from "~/services/contracts/contracts.server";

/** The user's contracts (`?status=`), most recently changed first, with counts by status. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json(await listContracts(user, queryOf(request)));
});

export const action = methodNotAllowed;
