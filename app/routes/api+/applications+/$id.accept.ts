import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/web/api.server";
import { acceptOffer } from "~/services/marketplace/applications.server";
import { requireApiUser } from "~/web/auth.server";
import { apiT } from "~/services/platform/i18n.server";

export const loader = methodNotAllowed;

/** The awaited party accepts the latest offer, named by `offer_id`. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  const data = await acceptOffer(user, params.id!, await readJson(request));
  return json({ data, message: apiT("offer_accepted") });
});
