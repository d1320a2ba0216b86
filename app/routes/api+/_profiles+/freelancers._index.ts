import { listFreelancers } from "~/services/reputation/profiles.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The directory: ?q, skill, city, remote=1, sort (newest · name), page, per_page. */
  GET: { handle: ({ query }) => listFreelancers(query) },
});
