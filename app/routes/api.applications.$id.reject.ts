import { json, type ActionFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, readOptionalJson } from "~/services/api.server";
import { rejectApplication } from "~/services/applications.server";
import { requireApiRole } from "~/services/auth.server";
import { apiT } from "~/services/i18n.server";

export const loader = methodNotAllowed;

/** The merchant declines, optionally with `{ message }`. */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed();
  const merchant = await requireApiRole(request, "merchant");
  const data = await rejectApplication(merchant, params.id!, await readOptionalJson(request));
  return json({ data, message: apiT("application_rejected_done") });
});
