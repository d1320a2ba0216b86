import { json, type ActionFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, readOptionalJson } from "~/services/api.server";
import { requireApiRole } from "~/services/auth.server";
import { apiT } from "~/services/i18n.server";
import { declineInvitation } from "~/services/invitations.server";

export const loader = methodNotAllowed;

export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed();
  const freelancer = await requireApiRole(request, "freelancer");
  await readOptionalJson(request);
  return json({ data: await declineInvitation(freelancer, params.id!), message: apiT("invitation_declined") });
});
