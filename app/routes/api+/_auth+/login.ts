import { json, type ActionFunctionArgs } from "@remix-run/node";
import { login } from "~/services/accounts/accounts.server";
import { apiPost, methodNotAllowed, readJson } from "~/web/api.server";
import { apiT } from "~/services/platform/i18n.server";
import { displayNameOf, toUserJson } from "~/services/accounts/users.server";

export const loader = methodNotAllowed;

export const action = apiPost(async ({ request }: ActionFunctionArgs) => {
  const { user, token, expiresAt } = await login(await readJson(request), request);
  return json({
    access_token: token,
    token_type: "Bearer",
    expires_at: expiresAt,
    user: toUserJson(user),
    message: apiT("welcome_back", { name: displayNameOf(user) }),
  });
});
