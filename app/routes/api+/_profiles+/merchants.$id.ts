import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { getMerchantProfile } from "~/services/reputation/profiles.server";

export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json({ data: await getMerchantProfile(params.id!, user.id) });
});

export const action = methodNotAllowed;
