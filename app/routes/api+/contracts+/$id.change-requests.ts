import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { requestChanges, getContract } from "~/services/contracts/contracts.server";
import { apiT } from "~/services/platform/i18n.server";

export const loader = methodNotAllowed;

/** The merchant asks for changes: `{ message }`. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  await requestChanges(user, params.id!, await readJson(request));
  return json({ data: await getContract(user, params.id!), message: apiT("changes_requested_done") }, { status: 201 });
});
