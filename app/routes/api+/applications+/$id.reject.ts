import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readOptionalJson } from "~/web/api.server";
import { rejectApplication } from "~/services/marketplace/applications.server";
import { requireApiRole } from "~/web/auth.server";
import { apiT } from "~/services/platform/i18n.server";

export const loader = methodNotAllowed;

/** The merchant declines, optionally with `{ message }`. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const merchant = await requireApiRole(request, "merchant");
  const data = await rejectApplication(merchant, params.id!, await readOptionalJson(request));
  return json({ data, message: apiT("application_rejected_done") });
});
