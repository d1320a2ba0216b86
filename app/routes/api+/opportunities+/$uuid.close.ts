import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readOptionalJson } from "~/web/api.server";
import { requireApiRole } from "~/web/auth.server";
import { apiT } from "~/services/platform/i18n.server";
import { closeOpportunity } from "~/services/marketplace/opportunities.server";

export const loader = methodNotAllowed;

export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const merchant = await requireApiRole(request, "merchant");
  // No fields are read, but a body sent anyway is held to the same rules as everywhere (JSON, 1 MB).
  await readOptionalJson(request);
  return json({ data: await closeOpportunity(merchant, params.uuid!), message: apiT("opportunity_closed") });
});
