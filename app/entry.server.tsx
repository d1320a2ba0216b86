import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import type { EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { NonceContext } from "~/lib/nonce";
import { i18nServer } from "~/services/i18n.server";
import { i18nFor } from "~/services/i18n-render.server";
import { applySecurityHeaders } from "~/services/security.server";
import { assertServerConfig, config } from "~/config.server";
import { startContractSchedule } from "~/services/contracts.server";
import { startPruning } from "~/services/housekeeping.server";
import { startOutbox } from "~/services/outbox.server";
import { installShutdownDeadline } from "~/services/shutdown.server";

// The server entry (scripts/server.js) refuses cross-site writes with this before Remix runs.
export { crossSiteRefusal } from "~/services/csrf.server";

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
const outbox = globalThis as unknown as { __freelaOutbox?: () => void };
if (config.NODE_ENV !== "test" && config.OUTBOX_SECONDS > 0) {
  outbox.__freelaOutbox ??= startOutbox(config.OUTBOX_SECONDS * 1000);
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
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
        <I18nextProvider i18n={i18n}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </I18nextProvider>
      </NonceContext.Provider>,
      {
        nonce,
        // No route streams (no defer or Suspense), so the whole page is ready as soon as its
        // shell is: it goes out as one buffer. Piped as React writes it, the page reached the
        // compression middleware as ~30 chunks of 2 kB, each a gzip pass of its own (11% of
        // a list page's CPU). A route that starts streaming needs onShellReady and a stream.
        onAllReady() {
          shellRendered = true;
          const chunks: Buffer[] = [];
          const sink = new Writable({
            write(chunk: Buffer, _encoding, done) {
              chunks.push(chunk);
              done();
            },
            final(done) {
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              applySecurityHeaders(responseHeaders, nonce);
              clearTimeout(timer);
              resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
              done();
            },
          });
          pipe(sink);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    // unref: a render's timer must not hold a stopping server open.
    timer.unref();
  });
}

export const handleDataRequest: HandleDataRequestFunction = (response) => {
  applySecurityHeaders(response.headers);
  return response;
};

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error(error);
}
