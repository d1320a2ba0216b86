import { marketplaceMetrics } from "~/services/operator/metrics.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The marketplace's figures for the last 30 or 90 days (?days=30|90), the funnel and the queues. */
  GET: { auth: "operator", handle: ({ query }) => marketplaceMetrics(query) },
});
