import { listUserReviews } from "~/services/reputation/reviews.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** A user's published reviews (`page`, `per_page`) and rating, for any signed-in user. */
  GET: { ids: { id: "not_found" }, handle: ({ params, query }) => listUserReviews(params.id, query) },
});
