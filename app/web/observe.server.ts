import type { IncomingMessage, ServerResponse } from "node:http";
import {
  closeRequest,
  CONTEXT_HEADER,
  logger,
  openRequest,
  requestIdFrom,
  type RequestContext,
} from "~/services/platform/log.server";
import { metrics, observeRequest } from "~/services/platform/metrics.server";
import { routeLabeller, statusClass } from "./route-label.server";

type BuildRoutes = Parameters<typeof routeLabeller>[0];

/** Liveness, readiness and metrics: their answers that went well are logged at `debug` only. */
const PROBES = new Set(["routes/healthz", "routes/readyz", "routes/metrics"]);

/**
 * The first middleware of scripts/server.js: every request gets its id (the client's or proxy's
 * X-Request-Id when well-formed, a new one otherwise), sent back in X-Request-Id and handed to
 * the app (the Request's own X-Request-Id header, and its context's key in CONTEXT_HEADER); once answered, one
 * access line (id, method, route id, path without query, status, duration, user id) and the
 * request's place in the metrics.
 */
export function observeRequests({ routes, publicPath }: { routes: BuildRoutes; publicPath: string }) {
  const label = routeLabeller(routes, publicPath);
  return (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, next: () => void) => {
    const started = performance.now();
    const context: RequestContext = { id: requestIdFrom(req.headers["x-request-id"]) };
    req.headers["x-request-id"] = context.id;
    res.setHeader("X-Request-Id", context.id);
    const key = openRequest(context);
    req.headers[CONTEXT_HEADER] = key;
    metrics.inFlight.inc();
    res.once("close", () => {
      closeRequest(key);
      metrics.inFlight.dec();
      const ms = performance.now() - started;
      const url = req.originalUrl ?? req.url ?? "/";
      const query = url.indexOf("?");
      const { route, path } = label(query === -1 ? url : url.slice(0, query));
      const status = res.statusCode;
      observeRequest(route, req.method, statusClass(status), ms / 1000);
      // A load balancer's and a scraper's polls that went well are noise at the default level.
      const level = status < 400 && PROBES.has(route) ? "debug" : "info";
      logger[level](
        {
          req_id: context.id,
          method: req.method,
          route,
          path,
          status,
          ms: Math.round(ms * 10) / 10,
          user: context.userId,
          ...(res.writableFinished ? {} : { aborted: true }),
        },
        "request",
      );
    });
    next();
  };
}
