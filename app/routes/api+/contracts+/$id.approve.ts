import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readOptionalJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { approveContract, getContract } from "~/services/contracts/contracts.server";
import { apiT } from "~/services/platform/i18n.server";

export const loader = methodNotAllowed;

/** The merchant approves the delivery: the contract is completed. */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  // No fields are read, but a body sent anyway is held to the same rules as everywhere (JSON, 1 MB).
  await readOptionalJson(request);
  await approveContract(user, params.id!);
  return json({ data: await getContract(user, params.id!), message: apiT("contract_approved") });
});
