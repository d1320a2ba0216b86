import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readOptionalJson } from "~/web/api.server";
import { withdrawApplication } from "~/services/marketplace/applications.server";
import { requireApiRole } from "~/web/auth.server";
import { apiT } from "~/services/platform/i18n.server";

export const loader = methodNotAllowed;

export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const freelancer = await requireApiRole(request, "freelancer");
  // No fields are read, but a body sent anyway is held to the same rules as everywhere (JSON, 1 MB).
  await readOptionalJson(request);
  return json({ data: await withdrawApplication(freelancer, params.id!), message: apiT("application_withdrawn_done") });
});
