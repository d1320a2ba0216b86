import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, queryOf } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { listNotifications } from "~/services/messaging/notifications.server";

/** `{ data, unread_count, meta }`, newest first; `?unread=1` for the unread ones only. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json(await listNotifications(user, queryOf(request)));
});

export const action = methodNotAllowed;
