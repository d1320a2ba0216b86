import { answerMilestone } from "~/services/payments/milestones.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The other side declines the proposed milestone: the contract's milestones as they are now. */
  POST: {
    ids: { id: "not_found", milestone: "not_found" },
    message: "milestone_declined_done",
    handle: async ({ user, params }) => ({ data: await answerMilestone(user, params.id, params.milestone, false) }),
  },
});
