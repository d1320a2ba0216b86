import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, readJson, readOptionalJson } from "~/web/api.server";
import { requireApiRole, requireApiUser } from "~/web/auth.server";
import { apiT } from "~/services/platform/i18n.server";
import { deleteOpportunity, getOpportunity, updateOpportunity } from "~/services/marketplace/opportunities.server";

export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json({ data: await getOpportunity(user, params.uuid!) });
});

/** PATCH: partial update by the owner while open. DELETE: only with no applications. */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method === "PATCH") {
    const merchant = await requireApiRole(request, "merchant");
    const data = await updateOpportunity(merchant, params.uuid!, await readJson(request));
    return json({ data, message: apiT("opportunity_updated") });
  }
  if (request.method === "DELETE") {
    const merchant = await requireApiRole(request, "merchant");
    // No fields are read, but a body sent anyway is held to the same rules as everywhere.
    await readOptionalJson(request);
    await deleteOpportunity(merchant, params.uuid!);
    return json({ message: apiT("opportunity_deleted") });
  }
  return methodNotAllowed();
});
