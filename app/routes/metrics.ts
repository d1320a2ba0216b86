import { config } from "~/config.server";
import { logError } from "~/services/platform/log.server";
import { metricsAuthorized, metricsContentType, metricsText } from "~/services/platform/metrics.server";

// GET /metrics: Prometheus text for a scraper holding METRICS_TOKEN (`Authorization: Bearer …`).
// Without METRICS_TOKEN the endpoint does not exist (404); a missing or wrong token gets 401.
export async function loader({ request }: { request: Request }) {
  const token = config.METRICS_TOKEN;
  if (!token) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  if (!metricsAuthorized(request.headers.get("Authorization"), token)) {
    return new Response("Unauthorized", {
      status: 401,
      headers: { "Content-Type": "text/plain", "WWW-Authenticate": 'Bearer realm="metrics"' },
    });
  }
  try {
    const text = await metricsText();
    return new Response(text, { headers: { "Content-Type": metricsContentType, "Cache-Control": "no-store" } });
  } catch (error) {
    logError(error, "metrics unavailable");
    return new Response("Metrics unavailable", {
      status: 503,
      headers: { "Content-Type": "text/plain", "Retry-After": "5" },
    });
  }
}
