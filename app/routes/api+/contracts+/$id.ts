import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { getContract } from "~/services/contracts/contracts.server";

/** Its two sides only; anyone else gets 404. The timeline oldest first, and the moves open now. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json({ data: await getContract(user, params.id!) });
});

export const action = methodNotAllowed;
