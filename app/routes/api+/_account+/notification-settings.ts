import { getEmailSettings, updateEmailSettings } from "~/services/messaging/email.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * `{ settings: { locale, kinds: { <kind>: true|false, … }, push: { <kind>: true|false, … } } }`: the
   * user's e-mail notifications, and the same kinds for push to their devices.
   */
  GET: { handle: async ({ user }) => ({ settings: await getEmailSettings(user) }) },
  /**
   * `{ kinds?: { <kind>: boolean }, push?: { <kind>: boolean }, locale?: "pt-BR" | "en" | null }`: the kinds named are turned on
   * or off, the others stay as they are. 422 (Portuguese message per field) for anything else.
   */
  POST: {
    body: "json",
    message: "email_settings_saved",
    handle: async ({ user, body }) => ({ settings: await updateEmailSettings(user, body) }),
  },
});
