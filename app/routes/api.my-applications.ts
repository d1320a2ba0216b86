import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, queryOf } from "~/services/api.server";
import { listMyApplications } from "~/services/applications.server";
import { requireApiRole } from "~/services/auth.server";

export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const freelancer = await requireApiRole(request, "freelancer");
  return json(await listMyApplications(freelancer, queryOf(request)));
});

export const action = methodNotAllowed;
