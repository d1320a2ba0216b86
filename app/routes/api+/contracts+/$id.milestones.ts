import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { splitMilestones } from "~/services/payments/milestones.server";
import { apiT } from "~/services/platform/i18n.server";

export const loader = methodNotAllowed;

/** The merchant splits the price before anything is funded: `{ milestones: [{ title, amount_cents, days }] }`. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  const data = await splitMilestones(user, params.id!, await readJson(request));
  return json({ data, message: apiT("milestones_saved") });
});
