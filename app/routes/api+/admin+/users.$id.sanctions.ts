import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/web/api.server";
import { requireApiOperator } from "~/web/operator.server";
import { apiT } from "~/services/platform/i18n.server";
import { sanctionUser } from "~/services/operator/sanctions.server";

export const loader = methodNotAllowed;

/** POST /api/admin/users/:id/sanctions: `{ action: warn|suspend|ban|lift, reason, days? }`. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const operator = await requireApiOperator(request);
  const data = await sanctionUser(operator, params.id!, await readJson(request));
  return json({ data, message: apiT("sanction_applied") });
});
