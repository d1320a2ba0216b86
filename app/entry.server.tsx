import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import type { EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import i18next from "i18next";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { NonceContext } from "~/lib/nonce";
import { i18nOptions, i18nServer } from "~/services/i18n.server";
import { applySecurityHeaders } from "~/services/security.server";
import { config } from "~/config.server";
import { startContractSchedule } from "~/services/contracts.server";
import { startPruning } from "~/services/housekeeping.server";
import { startOutbox } from "~/services/outbox.server";
import { installShutdownDeadline } from "~/services/shutdown.server";

// The server entry (scripts/server.js) refuses cross-site writes with this before Remix runs.
export { crossSiteRefusal } from "~/services/csrf.server";

const ABORT_DELAY = 5_000;

// The server build is loaded once per server process: the place for process-wide hooks.
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

// One i18next instance per language, made once: the translations never change while the
// server runs, and making an instance for every page cost ~0.6 ms of CPU. Renders only read it.
const instances = new Map<string, Promise<typeof i18next>>();
function i18nFor(lng: string) {
  let instance = instances.get(lng);
  if (!instance) {
    const created = i18next.createInstance();
    instance = created
      .use(initReactI18next)
      .init({ ...i18nOptions, lng })
      .then(() => memoizeTranslations(memoizeLanguageCodes(created)));
    instances.set(lng, instance);
  }
  return instance;
}

/**
 * i18next normalises the language code ("pt-BR") with Intl.getCanonicalLocales several times
 * for every t() call; a page makes hundreds of calls, and that was ~5% of its CPU. The answer
 * only depends on the code, so it is remembered (codes come from supportedLngs: a few).
 */
function memoizeLanguageCodes(instance: typeof i18next) {
  const utils = instance.services.languageUtils as { formatLanguageCode(code: string): string };
  const format = utils.formatLanguageCode.bind(utils);
  const known = new Map<string, string>();
  utils.formatLanguageCode = (code: string) => {
    let formatted = known.get(code);
    if (formatted === undefined) {
      formatted = format(code);
      if (known.size < 32) known.set(code, formatted);
    }
    return formatted;
  };
  return instance;
}

/** Options react-i18next's t() passes to every call; anything else (count, values) is a variable. */
const FIXED_OPTIONS = ["lng", "lngs", "ns", "keyPrefix"];

/**
 * A page translates ~300 strings, most of them plain labels repeated on every card (each
 * t() call costs ~5 µs in i18next: ~10% of a list page's CPU). A label without variables
 * depends only on its language, namespaces and key, and translations never change while the
 * server runs, so the text is remembered. Calls with variables (count, values) go through.
 */
function memoizeTranslations(instance: typeof i18next) {
  const translate = instance.t.bind(instance) as (key: unknown, options?: Record<string, unknown>) => unknown;
  const known = new Map<string, unknown>();
  const MAX = 5_000;
  instance.t = ((key: unknown, options?: Record<string, unknown>) => {
    if (typeof key !== "string" || (options && Object.keys(options).some((name) => !FIXED_OPTIONS.includes(name)))) {
      return translate(key, options);
    }
    const id = `${FIXED_OPTIONS.map((name) => String(options?.[name] ?? "")).join("|")}|${key}`;
    let text = known.get(id);
    if (text === undefined) {
      text = translate(key, options);
      if (typeof text === "string" && known.size < MAX) known.set(id, text);
    }
    return text;
  }) as typeof instance.t;
  return instance;
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
