import { getContractReviews, writeReview } from "~/services/reputation/reviews.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The contract's reviews as the viewer sees them: theirs, and the other side's once published. */
  GET: {
    ids: { id: "not_found" },
    handle: async ({ user, params }) => ({ data: await getContractReviews(user, params.id) }),
  },
  /** `{ rating: 1–5, comment? }` → 201 with the review (hidden from the other side until published). */
  POST: {
    body: "json",
    ids: { id: "not_found" },
    status: 201,
    message: "review_saved",
    handle: async ({ user, params, body }) => ({ data: await writeReview(user, params.id, body) }),
  },
});
