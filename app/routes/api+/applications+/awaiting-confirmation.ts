import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, queryOf } from "~/web/api.server";
import { listAwaitingConfirmation } from "~/services/marketplace/applications.server";
import { requireApiUser } from "~/web/auth.server";

export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json(await listAwaitingConfirmation(user, queryOf(request)));
});

export const action = methodNotAllowed;
