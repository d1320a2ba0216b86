import { declineInvitation } from "~/services/marketplace/invitations.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  POST: {
    may: "invitation.decline",
    ids: { id: "invitation_not_found" },
    message: "invitation_declined",
    handle: async ({ user, params }) => ({ data: await declineInvitation(user, params.id) }),
  },
});
