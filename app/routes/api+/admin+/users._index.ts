import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, queryOf } from "~/web/api.server";
import { requireApiOperator } from "~/web/operator.server";
import { listMembers } from "~/services/operator/members.server";

/** GET /api/admin/users: `q` (name or e-mail), `role`, `status` (active, suspended, banned, profile_hidden), `page`. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  await requireApiOperator(request);
  return json(await listMembers(queryOf(request)));
});

export const action = methodNotAllowed;
