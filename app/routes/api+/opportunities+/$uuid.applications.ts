import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { api, apiPost, queryOf, readJson } from "~/web/api.server";
import { applyToOpportunity, listOpportunityApplications } from "~/services/marketplace/applications.server";
import { requireApiRole } from "~/web/auth.server";
import { apiT } from "~/services/platform/i18n.server";

/** GET: the owner lists the applications (`?status=`); anyone else gets 403 (role) or 404. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const merchant = await requireApiRole(request, "merchant");
  return json(await listOpportunityApplications(merchant, params.uuid!, queryOf(request)));
});

/** POST: a freelancer applies. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const freelancer = await requireApiRole(request, "freelancer");
  const data = await applyToOpportunity(freelancer, params.uuid!, await readJson(request));
  return json({ data, message: apiT("application_sent") }, { status: 201 });
});
