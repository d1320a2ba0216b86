import { json, type ActionFunctionArgs } from "@remix-run/node";
import { registerUser } from "~/services/accounts/accounts.server";
import { apiErrorResponse, methodNotAllowed, readJson, withApiHeaders } from "~/web/api.server";
import { assertSameOrigin } from "~/web/auth.server";
import { apiT } from "~/services/platform/i18n.server";
import { toUserJson } from "~/services/accounts/users.server";

export const loader = methodNotAllowed;

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed();
  try {
    assertSameOrigin(request);
    const user = await registerUser(await readJson(request), request);
    return withApiHeaders(
      json({ success: true, data: { user: toUserJson(user) }, message: apiT("register_success") }, { status: 201 }),
    );
  } catch (error) {
    // Registration answers carry `success` either way (SPEC.md §3).
    const response = apiErrorResponse(error);
    const body = await response.json();
    return withApiHeaders(json({ success: false, ...body }, { status: response.status, headers: response.headers }));
  }
}
