import { replyToReview } from "~/services/reputation/reviews.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `{ reply }`: the reviewed person's one public reply to a published review. */
  POST: {
    body: "json",
    ids: { id: "not_found" },
    message: "review_reply_saved",
    handle: async ({ user, params, body }) => ({ data: await replyToReview(user, params.id, body) }),
  },
});
