import { getSettings, updateSettings } from "~/services/operator/settings.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  GET: { auth: "operator", handle: async () => ({ data: await getSettings() }) },
  /** `{ premoderation_days, public_pages }` (0 turns each off); the settings not sent stay. */
  POST: {
    auth: "operator",
    body: "json",
    message: "settings_saved",
    handle: async ({ user, body }) => ({ data: await updateSettings(user, body) }),
  },
});
