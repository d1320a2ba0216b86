import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { getDashboard } from "~/services/marketplace/dashboard.server";

export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json({ data: await getDashboard(user) });
});

export const action = methodNotAllowed;
