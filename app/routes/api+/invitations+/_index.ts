import { listInvitations } from "~/services/marketplace/invitations.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** A freelancer's invitations; for a merchant, the ones they sent. */
  GET: { handle: ({ user, query }) => listInvitations(user, query) },
});
