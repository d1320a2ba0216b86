import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readOptionalJson } from "~/web/api.server";
import { requireApiRole } from "~/web/auth.server";
import { apiT } from "~/services/platform/i18n.server";
import { declineInvitation } from "~/services/marketplace/invitations.server";

export const loader = methodNotAllowed;

export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const freelancer = await requireApiRole(request, "freelancer");
  await readOptionalJson(request);
  return json({ data: await declineInvitation(freelancer, params.id!), message: apiT("invitation_declined") });
});
