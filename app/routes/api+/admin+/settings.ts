import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { api, apiPost, readJson } from "~/web/api.server";
import { requireApiOperator } from "~/web/operator.server";
import { apiT } from "~/services/platform/i18n.server";
import { getSettings, updateSettings } from "~/services/operator/settings.server";

/** GET /api/admin/settings. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  await requireApiOperator(request);
  return json({ data: await getSettings() });
});

/** POST /api/admin/settings: `{ premoderation_days }` (0 turns pre-moderation off); the settings not sent stay. */
export const action = apiPost(async ({ request }: ActionFunctionArgs) => {
  const operator = await requireApiOperator(request);
  const data = await updateSettings(operator, await readJson(request));
  return json({ data, message: apiT("settings_saved") });
});
