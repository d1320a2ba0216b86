import { listMembers } from "~/services/operator/members.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `q` (name or e-mail), `role`, `status` (active, suspended, banned, profile_hidden), `page`. */
  GET: { auth: "operator", handle: ({ query }) => listMembers(query) },
});
