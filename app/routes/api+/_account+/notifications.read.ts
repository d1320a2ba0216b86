import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readOptionalJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { apiT } from "~/services/platform/i18n.server";
import { markNotificationsRead } from "~/services/messaging/notifications.server";

export const loader = methodNotAllowed;

/** `{ ids? }`: those notifications, or all of them when no ids are sent. */
export const action = apiPost(async ({ request }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  const { ids } = await readOptionalJson(request);
  const { unread_count } = await markNotificationsRead(user, ids);
  return json({ unread_count, message: apiT("notifications_read") });
});
