import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, queryOf } from "~/web/api.server";
import { requireApiOperator } from "~/web/operator.server";
import { listHeldOpportunities } from "~/services/operator/premoderation.server";

/** GET /api/admin/premoderation: the opportunities waiting for an operator, oldest first. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  await requireApiOperator(request);
  return json(await listHeldOpportunities(queryOf(request)));
});

export const action = methodNotAllowed;
