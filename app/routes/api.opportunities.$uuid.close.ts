import { json, type ActionFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed } from "~/services/api.server";
import { requireApiRole } from "~/services/auth.server";
import { apiT } from "~/services/i18n.server";
import { closeOpportunity } from "~/services/opportunities.server";

export const loader = methodNotAllowed;

export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed();
  const merchant = await requireApiRole(request, "merchant");
  return json({ data: await closeOpportunity(merchant, params.uuid!), message: apiT("opportunity_closed") });
});
