import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/web/api.server";
import { requireApiRole } from "~/web/auth.server";
import { apiT } from "~/services/platform/i18n.server";
import { inviteFreelancer } from "~/services/marketplace/invitations.server";

export const loader = methodNotAllowed;

/** `{ freelancer_id, message }` → 201 `{ data, message }`. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const merchant = await requireApiRole(request, "merchant");
  const data = await inviteFreelancer(merchant, params.uuid!, await readJson(request));
  return json({ data, message: apiT("invitation_sent") }, { status: 201 });
});
