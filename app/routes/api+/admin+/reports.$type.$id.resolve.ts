import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/web/api.server";
import { requireApiOperator } from "~/web/operator.server";
import { apiT } from "~/services/platform/i18n.server";
import { resolveReports } from "~/services/operator/reports.server";

export const loader = methodNotAllowed;

/**
 * POST /api/admin/reports/:type/:id/resolve: `{ action: dismiss|hide|warn|suspend|ban, reason, days?, hide? }`
 * resolves every open report of the target; 409 when another operator did first.
 */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const operator = await requireApiOperator(request);
  const data = await resolveReports(operator, params.type!, params.id!, await readJson(request));
  return json({ data, message: apiT("report_resolved") });
});
