import { getReportCase } from "~/services/operator/reports.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** One target's reports, with its content in context and its author's standing. */
  GET: {
    auth: "operator",
    ids: { id: "report_not_found" },
    handle: async ({ params }) => ({ data: await getReportCase(params.type!, params.id!) }),
  },
});
