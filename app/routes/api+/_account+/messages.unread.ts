import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { unreadMessages } from "~/services/messaging/messages.server";

/** Unread messages in all and per conversation (application id → count). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json(await unreadMessages(user));
});

export const action = methodNotAllowed;
