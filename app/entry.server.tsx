import { randomBytes } from "node:crypto";
import { pageBufferSink } from "~/web/page-buffer.server";
import { json, type EntryContext, type HandleDataRequestFunction } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { NonceContext } from "~/lib/nonce";
import { RequestIdContext } from "~/lib/error-code";
import { logError, logger, requestIdOf } from "~/services/platform/log.server";
import { i18nServer } from "~/web/i18n.server";
import { i18nFor } from "~/services/platform/i18n-render.server";
import { applySecurityHeaders } from "~/web/security.server";
import { assertServerConfig, config } from "~/config.server";
import { startContractSchedule } from "~/services/contracts/contracts.server";
import { startPruning } from "~/services/platform/housekeeping.server";
import { startOutbox } from "~/services/platform/outbox.server";
import { startNotas } from "~/services/fiscal/notas.server";
import { startDataExports } from "~/services/accounts/data-export.server";
import { startSavedSearchDigests } from "~/services/discovery/saved-searches.server";
import { installShutdownDeadline } from "~/services/platform/shutdown.server";
import { fixedT } from "~/services/platform/i18n.server";
import { getRequestT } from "~/web/i18n.server";
import { isUnavailable } from "../db/dialect";
import { keepPublicPage } from "~/web/public-page-cache.server";
import styles from "~/styles/app.css";

// The server entry (scripts/server.js) refuses cross-site writes with this before Remix runs.
export { crossSiteRefusal } from "~/web/csrf.server";
// scripts/server.js adds the common security headers to every answer that lacks them (files,
// CSV, redirects, sitemap, robots.txt: resource routes skip this entry).
export const securityHeaders = () => applySecurityHeaders(new Headers());
// scripts/server.js ends the open event streams when the server stops, so they hold no stop up.
export { closeEventStreams } from "~/services/platform/events.server";
// scripts/server.js answers visitors' public opportunity pages kept rendered, before Remix runs.
export { cachedPublicPage } from "~/web/public-page-cache.server";
// scripts/server.js answers GETs of resource routes (the API, files, /healthz) by their loader
// (the other two: tests/server/public/resource-routes.test.ts compares it with Remix's answer).
export { callResourceLoader, resourceLoaders, resourceRoutes } from "~/web/resource-route.server";
// scripts/server.js: request ids, the access log and the HTTP metrics (its first middleware), and
// the stop's first step (/readyz answers 503 from then on).
export { observeRequests } from "~/web/observe.server";
export { startDraining } from "~/services/platform/readiness.server";

const ABORT_DELAY = 5_000;

// The server build is loaded once per server process: the place for process-wide hooks.
// In production the server does not start without APP_URL (links in e-mails come from it).
assertServerConfig();
installShutdownDeadline();
// Time-based contract moves (reminders, automatic completion, overdue work). Once per process,
// though remix dev loads the build again after every change.
const scheduled = globalThis as unknown as { __freelaSchedule?: () => void; __freelaPruning?: () => void };
if (config.NODE_ENV !== "test" && config.CONTRACT_SCHEDULE_SECONDS > 0) {
  scheduled.__freelaSchedule ??= startContractSchedule(config.CONTRACT_SCHEDULE_SECONDS * 1000);
}
// Expired sessions and rate-limit counters are deleted from time to time, by every process.
if (config.NODE_ENV !== "test") scheduled.__freelaPruning ??= startPruning();
// The e-mail outbox: sent through SMTP_URL's server (to the log without one), by every process.
const outbox = globalThis as unknown as {
  __freelaOutbox?: () => void;
  __freelaExports?: () => void;
  __freelaDigests?: () => void;
  __freelaNotas?: () => void;
};
if (config.NODE_ENV !== "test" && config.OUTBOX_SECONDS > 0) {
  outbox.__freelaOutbox ??= startOutbox(config.OUTBOX_SECONDS * 1000);
  // Copies of users' data asked for (accounts/data-export.server.ts), on the outbox's timer.
  outbox.__freelaExports ??= startDataExports(config.OUTBOX_SECONDS * 1000);
  // Notas fiscais waiting to be issued (fiscal/notas.server.ts), on the outbox's timer.
  outbox.__freelaNotas ??= startNotas(config.OUTBOX_SECONDS * 1000);
}
// Saved searches' e-mail alerts (discovery/saved-searches.server.ts), by every process.
if (config.NODE_ENV !== "test" && config.SAVED_SEARCH_SECONDS > 0) {
  outbox.__freelaDigests ??= startSavedSearchDigests(config.SAVED_SEARCH_SECONDS * 1000);
}

// Requests during which the database could not be reached (PostgreSQL restarting or out of
// reach): a passing state, answered 503 with Retry-After like the API, not as a server error.
// handleError sees every error of a request before the answer is made, and is told which request.
const unavailable = new WeakSet<Request>();
const RETRY_AFTER = "5";

/**
 * The page answered while the database is out of reach: 503, Retry-After, a short page in the
 * visitor's language (no scripts, nothing that needs the database).
 */
async function unavailablePage(request: Request) {
  const lng = await i18nServer.getLocale(request);
  const common = fixedT(lng, "common");
  const messages = fixedT(lng, "messages");
  // The request id (well-formed or made here: safe in HTML), so support can find its log line.
  const code = request.headers.get("x-request-id");
  const codeLine = code ? `<p class="muted small">${common("errors.code", { code })}</p>` : "";
  const html = `<!DOCTYPE html><html lang="${lng}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Freela</title><link rel="stylesheet" href="${styles}"></head><body><main class="auth-page"><section class="card auth-card center"><p class="error-code">503</p><h1>${common("errors.generic_title")}</h1><p class="muted">${messages("database_unavailable")}</p>${codeLine}<a class="btn btn-primary" href="/">${common("not_found.back_home")}</a></section></main></body></html>`;
  const headers = applySecurityHeaders(
    new Headers({
      "Content-Type": "text/html; charset=utf-8",
      "Retry-After": RETRY_AFTER,
      "Cache-Control": "no-store",
    }),
    randomBytes(16).toString("base64"),
  );
  return new Response(html, { status: 503, headers });
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  if (unavailable.has(request)) return unavailablePage(request);
  const nonce = randomBytes(16).toString("base64");
  const i18n = await i18nFor(await i18nServer.getLocale(request));

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    // A render still going after ABORT_DELAY is cut short. The timer is cleared as soon as the
    // page is out: left to run, it kept every finished render (the whole React tree and its
    // data) in memory for those 5 seconds, hundreds of pages under load, for the GC to walk.
    const timer = setTimeout(() => abort(), ABORT_DELAY);
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <RequestIdContext.Provider value={request.headers.get("x-request-id")}>
          <I18nextProvider i18n={i18n}>
            <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
          </I18nextProvider>
        </RequestIdContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        // No route streams (no defer or Suspense), so the whole page is ready as soon as its
        // shell is: it goes out as one buffer. Piped as React writes it, the page reached the
        // compression middleware as ~30 chunks of 2 kB, each a gzip pass of its own (11% of
        // a list page's CPU). A route that starts streaming needs onShellReady and a stream.
        onAllReady() {
          shellRendered = true;
          pipe(
            pageBufferSink((body) => {
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              applySecurityHeaders(responseHeaders, nonce);
              clearTimeout(timer);
              keepPublicPage(responseStatusCode, responseHeaders, body, nonce);
              resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }));
            }),
          );
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logError(error, "render failed", request);
        },
      },
    );
    // unref: a render's timer must not hold a stopping server open.
    timer.unref();
  });
}

export const handleDataRequest: HandleDataRequestFunction = async (response, { request }) => {
  if (unavailable.has(request)) {
    // A script's request for a page's data: a refusal the page's error boundary shows, with its message.
    const { t } = await getRequestT(request);
    response = json(
      { message: t("database_unavailable") },
      { status: 503, headers: { "Retry-After": RETRY_AFTER, "X-Remix-Catch": "yes", "Cache-Control": "no-store" } },
    );
  }
  applySecurityHeaders(response.headers);
  return response;
};

export function handleError(error: unknown, { request }: { request: Request }) {
  if (isUnavailable(error)) {
    unavailable.add(request);
    logger.error({ req_id: requestIdOf(request) }, `[db] ${error instanceof Error ? error.message : error}`);
    return;
  }
  if (request.signal.aborted) return;
  // The router's own refusals (a POST to a page without an action: 405; no such route: 404) are
  // the client's mistake, answered with their status: a scanner's crawl is not a stack trace each.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logError(error, "error", request);
}
