import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, queryOf } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { listNotifications } from "~/services/notifications.server";

/** `{ data, unread_count, meta }`, newest first; `?unread=1` for the unread ones only. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json(await listNotifications(user, queryOf(request)));
});

export const action = methodNotAllowed;
