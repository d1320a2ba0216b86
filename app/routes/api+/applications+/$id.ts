import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed } from "~/web/api.server";
import { getApplication } from "~/services/marketplace/applications.server";
import { requireApiUser } from "~/web/auth.server";

/** Participants only; anyone else gets 404. Offers oldest first. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json({ data: await getApplication(user, params.id!) });
});

export const action = methodNotAllowed;
