import { json, type ActionFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, readJson } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { cancelContract, getContract } from "~/services/contracts.server";
import { apiT } from "~/services/i18n.server";

export const loader = methodNotAllowed;

/** Before any delivery, either side ends the contract: `{ reason }`. */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed();
  const user = await requireApiUser(request);
  await cancelContract(user, params.id!, await readJson(request));
  return json({ data: await getContract(user, params.id!), message: apiT("contract_cancelled_done") });
});
