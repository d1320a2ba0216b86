import { registerUser } from "~/services/accounts/accounts.server";
import { toUserJson } from "~/services/accounts/users.server";
import { apiRoute } from "~/web/api-route.server";
import { clientOf } from "~/web/client.server";

export const { loader, action } = apiRoute({
  /** Registration answers carry `success` either way, refusals included. */
  POST: {
    auth: "public",
    body: "json",
    success: true,
    status: 201,
    message: "register_success",
    handle: async ({ request, body }) => ({
      data: { user: toUserJson(await registerUser(body, await clientOf(request))) },
    }),
  },
});
