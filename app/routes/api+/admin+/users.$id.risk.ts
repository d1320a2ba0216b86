import { riskSignals } from "~/services/operator/risk-signals.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The account's risk signals: documents shared, reports, contacts masked, disputes lost, refunds. */
  GET: {
    auth: "operator",
    ids: { id: "user_not_found" },
    handle: async ({ params }) => ({ data: await riskSignals(params.id!) }),
  },
});
