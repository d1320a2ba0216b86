import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/web/api.server";
import { counterOffer } from "~/services/marketplace/applications.server";
import { requireApiUser } from "~/web/auth.server";
import { apiT } from "~/services/platform/i18n.server";

export const loader = methodNotAllowed;

/** The awaited party counters with new terms. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  const data = await counterOffer(user, params.id!, await readJson(request));
  return json({ data, message: apiT("offer_sent") }, { status: 201 });
});
