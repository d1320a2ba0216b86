import { declineInvitation } from "~/services/marketplace/invitations.server";
import { apiRoute } from "~/web/api-route.server";
import { recordMove } from "~/web/record-move.server";

export const { loader, action } = apiRoute({
  POST: recordMove("id", declineInvitation, {
    may: "invitation.decline",
    message: "invitation_declined",
    notFound: "invitation_not_found",
  }),
});
