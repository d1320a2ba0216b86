import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed } from "~/services/api.server";
import { getApplication } from "~/services/applications.server";
import { requireApiUser } from "~/services/auth.server";

/** Participants only; anyone else gets 404. Offers oldest first. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json({ data: await getApplication(user, params.id!) });
});

export const action = methodNotAllowed;
