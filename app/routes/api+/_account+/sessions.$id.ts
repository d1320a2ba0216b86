import { endSessionById } from "~/services/accounts/sessions.server";
import { apiRoute } from "~/web/api-route.server";
import { getRequestToken } from "~/web/session.server";

export const { loader, action } = apiRoute({
  /**
   * Ends one of the account's other sessions, on every server at once: 404 when it is not one of
   * theirs or has ended already, 409 for the current one (that is POST /api/logout).
   */
  DELETE: {
    auth: "account",
    ids: { id: "session_not_found" },
    message: "session_ended",
    handle: async ({ request, user, params }) => {
      await endSessionById(user, params.id, await getRequestToken(request));
      return {};
    },
  },
});
