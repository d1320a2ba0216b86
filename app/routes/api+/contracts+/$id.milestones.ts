import { splitMilestones } from "~/services/payments/milestones.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The merchant splits the price before anything is funded: `{ milestones: [{ title, amount_cents, days }] }`. */
  POST: {
    ids: { id: "not_found" },
    body: "json",
    message: "milestones_saved",
    handle: async ({ user, params, body }) => ({ data: await splitMilestones(user, params.id, body) }),
  },
});
