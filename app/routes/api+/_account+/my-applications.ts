import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, queryOf } from "~/web/api.server";
import { listMyApplications } from "~/services/marketplace/applications.server";
import { requireApiRole } from "~/web/auth.server";

export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const freelancer = await requireApiRole(request, "freelancer");
  return json(await listMyApplications(freelancer, queryOf(request)));
});

export const action = methodNotAllowed;
