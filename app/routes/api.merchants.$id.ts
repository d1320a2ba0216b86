import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { getMerchantProfile } from "~/services/profiles.server";

export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  await requireApiUser(request);
  return json({ data: await getMerchantProfile(params.id!) });
});

export const action = methodNotAllowed;
