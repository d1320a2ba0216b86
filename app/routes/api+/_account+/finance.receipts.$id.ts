import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { getReceipt } from "~/services/payments/finance.server";

/** The receipt of one of the user's payments or payouts (404 for anyone else's). */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json({ data: await getReceipt(user, params.id!) });
});

export const action = methodNotAllowed;
