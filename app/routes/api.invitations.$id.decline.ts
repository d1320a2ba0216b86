import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readOptionalJson } from "~/services/api.server";
import { requireApiRole } from "~/services/auth.server";
import { apiT } from "~/services/i18n.server";
import { declineInvitation } from "~/services/invitations.server";

export const loader = methodNotAllowed;

export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const freelancer = await requireApiRole(request, "freelancer");
  await readOptionalJson(request);
  return json({ data: await declineInvitation(freelancer, params.id!), message: apiT("invitation_declined") });
});
