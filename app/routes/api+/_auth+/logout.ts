import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readOptionalJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { apiT } from "~/services/platform/i18n.server";
import { endSession } from "~/services/accounts/sessions.server";

export const loader = methodNotAllowed;

/** Deletes the session row, so the token is dead for every client that holds it. */
export const action = apiPost(async ({ request }: ActionFunctionArgs) => {
  await requireApiUser(request);
  // No fields are read, but a body sent anyway is held to the same rules as everywhere (JSON, 1 MB).
  await readOptionalJson(request);
  const clearCookie = await endSession(request);
  return json({ message: apiT("logout_done") }, { headers: { "Set-Cookie": clearCookie } });
});
