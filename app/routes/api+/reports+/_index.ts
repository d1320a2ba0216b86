import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { apiT } from "~/services/platform/i18n.server";
import { reportContent } from "~/services/operator/reports.server";

export const loader = methodNotAllowed;

/** POST /api/reports: `{ target_type, target_id, reason, details? }` → 201 "recebemos sua denúncia". */
export const action = apiPost(async ({ request }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  const data = await reportContent(user, await readJson(request));
  return json({ data, message: apiT("report_received") }, { status: 201 });
});
