import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { api, apiPost, readOptionalJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { listPayouts, requestPayout } from "~/services/payments/payouts.server";
import { apiT } from "~/services/platform/i18n.server";

/** The freelancer's payouts, newest first. */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json({ data: await listPayouts(user) });
});

/** Asks for the whole available balance to be paid to the registered key → 201. */
export const action = apiPost(async ({ request }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  await readOptionalJson(request);
  const data = await requestPayout(user);
  return json({ data, message: apiT("payout_requested_done") }, { status: 201 });
});
