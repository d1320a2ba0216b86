import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { cancelContract, getContract } from "~/services/contracts/contracts.server";
import { apiT } from "~/services/platform/i18n.server";

export const loader = methodNotAllowed;

/** Before any delivery, either side ends the contract: `{ reason }`. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  await cancelContract(user, params.id!, await readJson(request));
  return json({ data: await getContract(user, params.id!), message: apiT("contract_cancelled_done") });
});
