import { proposeMilestone } from "~/services/payments/milestones.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** Either side proposes one more milestone: `{ title, amount_cents, days }` → 201. */
  POST: {
    ids: { id: "not_found" },
    body: "json",
    status: 201,
    message: "milestone_proposed_done",
    handle: async ({ user, params, body }) => ({ data: await proposeMilestone(user, params.id, body) }),
  },
});
