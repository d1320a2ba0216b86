import { inviteFreelancer } from "~/services/marketplace/invitations.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `{ freelancer_id, message }` → 201 `{ data, message }`. */
  POST: {
    may: "opportunity.invite",
    body: "json",
    ids: { uuid: "not_found" },
    status: 201,
    message: "invitation_sent",
    handle: async ({ user, params, body }) => ({ data: await inviteFreelancer(user, params.uuid, body) }),
  },
});
