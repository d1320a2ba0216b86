import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, queryOf } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { listFreelancers } from "~/services/profiles.server";

/** The directory: ?q, skill, city, remote=1, sort (newest · name), page, per_page. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  await requireApiUser(request);
  return json(await listFreelancers(queryOf(request)));
});

export const action = methodNotAllowed;
