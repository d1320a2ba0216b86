import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readOptionalJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { answerMilestone } from "~/services/payments/milestones.server";
import { apiT } from "~/services/platform/i18n.server";

export const loader = methodNotAllowed;

/** The other side accepts the proposed milestone: the contract's milestones as they are now. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  await readOptionalJson(request);
  const data = await answerMilestone(user, params.id!, params.milestone!, true);
  return json({ data, message: apiT("milestone_accepted_done") });
});
