import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, queryOf } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { listInvitations } from "~/services/marketplace/invitations.server";

/** A freelancer's invitations; for a merchant, the ones they sent. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json(await listInvitations(user, queryOf(request)));
});

export const action = methodNotAllowed;
