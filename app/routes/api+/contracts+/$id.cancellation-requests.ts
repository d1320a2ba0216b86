import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { requestCancellation, getContract } from "~/services/contracts/contracts.server";
import { apiT } from "~/services/platform/i18n.server";

export const loader = methodNotAllowed;

/** After a delivery, one side asks to cancel: `{ reason }`. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  await requestCancellation(user, params.id!, await readJson(request));
  return json({ data: await getContract(user, params.id!), message: apiT("cancellation_requested") }, { status: 201 });
});
