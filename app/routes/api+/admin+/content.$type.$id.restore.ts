import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/web/api.server";
import { requireApiOperator } from "~/web/operator.server";
import { apiT } from "~/services/platform/i18n.server";
import { restoreContent } from "~/services/operator/reports.server";

export const loader = methodNotAllowed;

/** POST /api/admin/content/:type/:id/restore: `{ reason }` shows hidden content again (its author is told). */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const operator = await requireApiOperator(request);
  const data = await restoreContent(operator, params.type!, params.id!, await readJson(request));
  return json({ data, message: apiT("content_restored") });
});
