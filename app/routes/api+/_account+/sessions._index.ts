import { listSessions } from "~/services/accounts/sessions.server";
import { apiRoute } from "~/web/api-route.server";
import { getRequestToken } from "~/web/session.server";

export const { loader, action } = apiRoute({
  /** The account's open sessions: device, address, last use; the one making the request first, `current: true`. */
  GET: {
    auth: "account",
    handle: async ({ request, user }) => ({ data: await listSessions(user, await getRequestToken(request)) }),
  },
});
