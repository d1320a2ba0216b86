import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { api, apiPost, queryOf, readJson } from "~/web/api.server";
import { requireApiRole, requireApiUser } from "~/web/auth.server";
import { apiT } from "~/services/platform/i18n.server";
import { createOpportunity, listOpportunities } from "~/services/marketplace/opportunities.server";

/** GET /api/opportunities: filters, full-text `q`, sort and pagination. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json(await listOpportunities(user, queryOf(request)));
});

/** POST /api/opportunities: merchants publish. */
export const action = apiPost(async ({ request }: ActionFunctionArgs) => {
  const merchant = await requireApiRole(request, "merchant");
  const data = await createOpportunity(merchant, await readJson(request));
  return json({ data, message: apiT("opportunity_created") }, { status: 201 });
});
