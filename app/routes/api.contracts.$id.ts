import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { getContract } from "~/services/contracts.server";

/** Its two sides only; anyone else gets 404. The timeline oldest first, and the moves open now. */
export const loader = api(async ({ request, params }: LoaderFunctionArgs) => {
  const user = await requireApiUser(request);
  return json({ data: await getContract(user, params.id!) });
});

export const action = methodNotAllowed;
