import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { proposeMilestone } from "~/services/payments/milestones.server";
import { apiT } from "~/services/platform/i18n.server";

export const loader = methodNotAllowed;

/** Either side proposes one more milestone: `{ title, amount_cents, days }` → 201. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  const data = await proposeMilestone(user, params.id!, await readJson(request));
  return json({ data, message: apiT("milestone_proposed_done") }, { status: 201 });
});
