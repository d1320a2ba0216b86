import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed } from "~/web/api.server";
import { requireApiOperator } from "~/web/operator.server";
import { getMember } from "~/services/operator/members.server";

/** GET /api/admin/users/:id: standing, reports, contracts and the log of what operators did. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  await requireApiOperator(request);
  return json({ data: await getMember(params.id!) });
});

export const action = methodNotAllowed;
