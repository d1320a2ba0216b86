import { resolveReports } from "~/services/operator/reports.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * `{ action: dismiss|hide|warn|suspend|ban, reason, days?, hide? }` resolves every open report
   * of the target; 409 when another operator did first.
   */
  POST: {
    auth: "operator",
    body: "json",
    ids: { id: "report_not_found" },
    message: "report_resolved",
    handle: async ({ user, params, body }) => ({ data: await resolveReports(user, params.type!, params.id!, body) }),
  },
});
