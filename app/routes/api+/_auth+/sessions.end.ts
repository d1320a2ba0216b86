import { endNoticedSession } from "~/services/accounts/sessions.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * `{ token }` from a sign-in notice → that session ended on every server; signed in or not (the
   * link is the proof). 410 once the session has ended, 422 for a malformed token.
   */
  POST: {
    auth: "public",
    body: "json",
    message: "session_ended",
    handle: async ({ body }) => {
      await endNoticedSession(body);
      return {};
    },
  },
});
