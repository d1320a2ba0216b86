import { listAuditLog } from "~/services/operator/audit.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The audit log, newest first; filters action, actor, target_type, target_id, from, to, page. */
  GET: { auth: "operator", handle: ({ query }) => listAuditLog(query) },
});
