import { apiRoute } from "~/web/api-route.server";
import { eventStream } from "~/web/event-stream.server";

export const { loader, action } = apiRoute({
  /** The user's live events (Server-Sent Events): messages, notifications, contract moves. */
  GET: { handle: ({ request, user }) => eventStream(request, user) },
});
