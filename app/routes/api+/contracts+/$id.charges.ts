import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { api, apiPost, readOptionalJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { getCurrentCharge, issueCharge } from "~/services/payments/charges.server";
import { apiT } from "~/services/platform/i18n.server";

/** The Pix charge waiting for the milestone being worked on (`data: null` when none is). */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json({ data: await getCurrentCharge(user, params.id!) });
});

/** The merchant funds the current milestone: 201 with a new charge, 200 with the one still valid. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  await readOptionalJson(request);
  const { charge, created } = await issueCharge(user, params.id!);
  return json({ data: charge, message: apiT("charge_issued") }, { status: created ? 201 : 200 });
});
