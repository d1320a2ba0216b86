import { endSession } from "~/web/session.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** Deletes the session row, so the token is dead for every client that holds it. */
  POST: {
    message: "logout_done",
    handle: async ({ request, headers }) => {
      headers.set("Set-Cookie", await endSession(request));
      return {};
    },
  },
});
