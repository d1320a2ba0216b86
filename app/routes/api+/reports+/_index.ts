import { reportContent } from "~/services/operator/reports.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** `{ target_type, target_id, reason, details? }` → 201 "recebemos sua denúncia". */
  POST: {
    body: "json",
    status: 201,
    message: "report_received",
    handle: async ({ user, body }) => ({ data: await reportContent(user, body) }),
  },
});
