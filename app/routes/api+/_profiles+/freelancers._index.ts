import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, queryOf } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { listFreelancers } from "~/services/reputation/profiles.server";

/** The directory: ?q, skill, city, remote=1, sort (newest · name), page, per_page. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  await requireApiUser(request);
  return json(await listFreelancers(queryOf(request)));
});

export const action = methodNotAllowed;
