import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readOptionalJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { declineCancellation, getContract } from "~/services/contracts/contracts.server";
import { apiT } from "~/services/platform/i18n.server";

export const loader = methodNotAllowed;

/** The other side refuses the cancellation asked for. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  // No fields are read, but a body sent anyway is held to the same rules as everywhere (JSON, 1 MB).
  await readOptionalJson(request);
  await declineCancellation(user, params.id!);
  return json({ data: await getContract(user, params.id!), message: apiT("cancellation_declined") });
});
