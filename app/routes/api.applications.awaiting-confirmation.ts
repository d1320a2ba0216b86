import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, queryOf } from "~/services/api.server";
import { listAwaitingConfirmation } from "~/services/applications.server";
import { requireApiUser } from "~/services/auth.server";

export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json(await listAwaitingConfirmation(user, queryOf(request)));
});

export const action = methodNotAllowed;
