import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/web/api.server";
import { requireApiOperator } from "~/web/operator.server";
import { apiT } from "~/services/platform/i18n.server";
import { decideHeldOpportunity } from "~/services/operator/premoderation.server";

export const loader = methodNotAllowed;

/** POST /api/admin/premoderation/:uuid: `{ decision: approve|reject, reason? }` (a refusal needs a reason). */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const operator = await requireApiOperator(request);
  const data = await decideHeldOpportunity(operator, params.uuid!, await readJson(request));
  return json({ data, message: apiT("premoderation_decided") });
});
