import { listDisputes } from "~/services/operator/disputes.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The disputes' queue: `status` (open by default, oldest first; decided, newest first), `page`. */
  GET: { auth: "operator", handle: ({ query }) => listDisputes(query) },
});
