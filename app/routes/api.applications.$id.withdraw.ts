import { json, type ActionFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed } from "~/services/api.server";
import { withdrawApplication } from "~/services/applications.server";
import { requireApiRole } from "~/services/auth.server";
import { apiT } from "~/services/i18n.server";

export const loader = methodNotAllowed;

export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed();
  const freelancer = await requireApiRole(request, "freelancer");
  return json({ data: await withdrawApplication(freelancer, params.id!), message: apiT("application_withdrawn_done") });
});
