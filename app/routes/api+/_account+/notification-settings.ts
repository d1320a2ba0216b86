import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, readJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { getEmailSettings, updateEmailSettings } from "~/services/messaging/email.server";
import { apiT } from "~/services/platform/i18n.server";

/** `{ settings: { locale, kinds: { <kind>: true|false, … } } }`: the user's e-mail notifications. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json({ settings: await getEmailSettings(user) });
});

/**
 * `{ kinds?: { <kind>: boolean }, locale?: "pt-BR" | "en" | null }`: the kinds named are turned on
 * or off, the others stay as they are. 422 (Portuguese message per field) for anything else.
 */
export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireApiUser(request);
  const settings = await updateEmailSettings(user, await readJson(request));
  return json({ settings, message: apiT("email_settings_saved") });
});
