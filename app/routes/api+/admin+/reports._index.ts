import { listReportQueue } from "~/services/operator/reports.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** Reports grouped by target; `type`, `status` (open by default), `age` (day, week, older), `page`. */
  GET: { auth: "operator", handle: ({ query }) => listReportQueue(query) },
});
