import { json, type ActionFunctionArgs } from "@remix-run/node";
import { login } from "~/services/accounts.server";
import { api, methodNotAllowed, readJson } from "~/services/api.server";
import { apiT } from "~/services/i18n.server";
import { displayNameOf, toUserJson } from "~/services/users.server";

export const loader = methodNotAllowed;

export const action = api(async ({ request }: ActionFunctionArgs) => {
  if (request.method !== "POST") return methodNotAllowed();
  const { user, token, expiresAt } = await login(await readJson(request), request);
  return json({
    access_token: token,
    token_type: "Bearer",
    expires_at: expiresAt,
    user: toUserJson(user),
    message: apiT("welcome_back", { name: displayNameOf(user) }),
  });
});
