import { endOtherSessions } from "~/services/accounts/sessions.server";
import { apiRoute } from "~/web/api-route.server";
import { getRequestToken } from "~/web/session.server";

export const { loader, action } = apiRoute({
  /** "Encerrar todas as outras": every session of the account but the one making the request. */
  DELETE: {
    auth: "account",
    message: "sessions_others_ended",
    handle: async ({ request, user }) => ({ ended: await endOtherSessions(user, await getRequestToken(request)) }),
  },
});
