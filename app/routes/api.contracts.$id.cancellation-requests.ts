import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { requestCancellation, getContract } from "~/services/contracts.server";
import { apiT } from "~/services/i18n.server";

export const loader = methodNotAllowed;

/** After a delivery, one side asks to cancel: `{ reason }`. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  await requestCancellation(user, params.id!, await readJson(request));
  return json({ data: await getContract(user, params.id!), message: apiT("cancellation_requested") }, { status: 201 });
});
