// The HTTP server of one process (`npm start` runs one per core through scripts/serve.ts):
// Express with the Remix request handler, as remix-serve does, less what every request paid for
// there and nobody needed:
// - no compression: the reverse proxy in front compresses (it terminates TLS anyway), once per
//   response and outside these processes. remix-serve gzipped every answer, even a 15-byte
//   /healthz, with a new zlib stream and a flush each (Remix writes its bodies in pieces).
// - the access log is the app's (app/web/observe.server.ts): one JSON line per request with its
//   request id, route id, status, duration and user id; the same middleware feeds /metrics.
// - static files only where they are: /build/ (fingerprinted names: cached for a year) and the
//   few public files (an hour); any other path goes straight to Remix without a disk lookup.
// Plain JavaScript, so the workers need no TypeScript loader.
import { createRequestHandler } from "@remix-run/express";
import { installGlobals } from "@remix-run/node";
import express from "express";
import cluster from "node:cluster";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const buildPath = resolve(process.argv[2] ?? "build/index.js");
if (!existsSync(buildPath)) {
  console.error(`[freela] server build not found: ${buildPath} (run npm run build)`);
  process.exit(1);
}
// Remix 2 without single fetch runs on the fetch polyfills (measured faster here than Node's own).
installGlobals();
const build = await import(pathToFileURL(buildPath).href);

const app = express();
app.disable("x-powered-by");
// First of all: the request's id (X-Request-Id, sent back), its access line and its metrics.
app.use(build.entry.module.observeRequests(build));
// Kept off: Express would read X-Forwarded-* only with it set, and nothing here needs req.ip.
// Every answer carries the common security headers (nosniff, frame options, referrer policy…):
// pages get them in entry.server and the API in api(), and here whatever else answers — files,
// the statement CSV, redirects, sitemap.xml, robots.txt, static files, the refusals below. A
// header the app set itself is left as it is.
const SECURITY_HEADERS = [...build.entry.module.securityHeaders()];
app.use((_req, res, next) => {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    for (const [name, value] of SECURITY_HEADERS) if (!res.hasHeader(name)) res.setHeader(name, value);
    return writeHead.apply(this, args);
  };
  next();
});
app.use(
  build.publicPath,
  express.static(build.assetsBuildDirectory, { immutable: true, maxAge: "1y", fallthrough: false }),
);
app.use("/locales", express.static("public/locales", { maxAge: "1h", fallthrough: false }));
app.get("/favicon.svg", express.static("public", { maxAge: "1h" }));
// The installable app: its manifest, service worker and offline page revalidated on every use
// (a new deploy's worker is seen at once), its icons kept a day.
app.get(["/manifest.webmanifest", "/sw.js", "/offline.html"], express.static("public", { maxAge: 0 }));
app.use("/icons", express.static("public/icons", { maxAge: "1d", fallthrough: false }));
// The preview image of public pages without a photo (Open Graph, Twitter card).
app.get("/og-image.png", express.static("public", { maxAge: "1h" }));
// A request answered before its body was read (a 401 or 415 refuses without reading, say): the
// rest of the body is still on the connection, ahead of the client's next request. It is read
// and dropped once the answer is out, so the connection stays usable; past UNREAD_BODY_LIMIT the
// client is not uploading by mistake and the connection is closed. A body known to be larger
// than that gets `Connection: close` with its answer, so no client sends another request on it.
const UNREAD_BODY_LIMIT = 16 * 1024 * 1024;
app.use((req, res, next) => {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    if (!req.complete && Number(req.headers["content-length"] ?? 0) > UNREAD_BODY_LIMIT)
      res.setHeader("Connection", "close");
    return writeHead.apply(this, args);
  };
  res.once("finish", () => {
    if (req.complete || req.destroyed) return;
    // The app's stream of the body stops taking data; what is left is counted and dropped.
    req.removeAllListeners("data");
    let left = UNREAD_BODY_LIMIT;
    req.on("data", (chunk) => {
      left -= chunk.length;
      if (left < 0) req.socket.destroy();
    });
    req.resume();
  });
  next();
});
// A write from another site gets the app's 403 and its Portuguese message here: Remix would
// refuse a cross-site document POST itself, but with an empty 500.
const { crossSiteRefusal } = build.entry.module;
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
app.use(async (req, res, next) => {
  if (SAFE.has(req.method)) return next();
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const refusal = crossSiteRefusal(
    new Request(`http://${req.headers.host ?? "localhost"}${req.originalUrl}`, { method: req.method, headers }),
  );
  if (!refusal) return next();
  // The body is left unread: the connection closes after the answer.
  res
    .status(refusal.status)
    .set(Object.fromEntries(refusal.headers))
    .set("Connection", "close")
    .send(await refusal.text());
});
// A visitor's public opportunity page kept rendered (app/web/public-page-cache.server.ts): one read
// of the opportunity tells whether the kept page is still what it shows; otherwise Remix renders.
const { cachedPublicPage } = build.entry.module;
app.get("/vagas/:slug", async (req, res, next) => {
  try {
    const page = await cachedPublicPage({
      method: req.method,
      url: req.originalUrl,
      cookie: req.headers.cookie,
      authorization: req.headers.authorization,
    });
    if (!page) return next();
    res.writeHead(page.status, {
      ...page.headers,
      "Content-Length": Buffer.byteLength(page.body),
      "X-Page-Cache": "hit",
    });
    res.end(req.method === "HEAD" ? undefined : page.body);
  } catch {
    next();
  }
});
// A GET of a resource route (the JSON API, files, the sitemap, /healthz) is answered by its
// loader, with Remix's own matching and the same answer, without the rest of Remix's handling
// (app/web/resource-route.server.ts).
app.use(build.entry.module.resourceRoutes(build));
app.all("*", createRequestHandler({ build, mode: build.mode }));

const port = Number(process.env.PORT) || 3000;
const host = process.env.HOST;
const server = app.listen(port, ...(host ? [host] : []), () => {
  console.info(`[freela] process ${process.pid} serving on http://${host ?? "localhost"}:${port}`);
});
// A reverse proxy keeps connections open for reuse (nginx: 60 s by default); this side must keep
// them a little longer, or the proxy may send a request on a socket this side is closing.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

// Stopping (SIGTERM/SIGINT, or the launcher disconnecting this worker): /readyz answers 503 at
// once (a load balancer stops sending requests), and the server goes on answering for
// SHUTDOWN_DRAIN_MS (0 by default) while it notices; then no new connections, idle ones closed
// at once (a proxy's would otherwise hold the process for keepAliveTimeout), requests in flight
// finish; the process exits once nothing is left (the build's shutdown deadline bounds the wait).
const DRAIN_MS = Number(process.env.SHUTDOWN_DRAIN_MS) || 0;
let draining = false;
function drainThenStop() {
  if (draining) return;
  draining = true;
  build.entry.module.startDraining();
  if (DRAIN_MS > 0) setTimeout(stop, DRAIN_MS).unref();
  else stop();
}
let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  build.entry.module.startDraining();
  server.close();
  server.closeIdleConnections();
  // Open event streams (GET /api/events) would keep their connections to the end of the grace:
  // they end now, and browsers reconnect to another process with their Last-Event-ID.
  build.entry.module.closeEventStreams?.();
}
process.once("SIGTERM", drainThenStop);
process.once("SIGINT", drainThenStop);
if (cluster.isWorker) {
  cluster.worker.once("disconnect", stop);
  // The launcher says so before it disconnects this worker (whose server would otherwise wait
  // for every open connection, event streams included, before "disconnect" comes), and before
  // that that a stop began (it waits SHUTDOWN_DRAIN_MS in between).
  process.on("message", (message) => {
    if (message?.type === "freela:draining") build.entry.module.startDraining();
    if (message?.type === "freela:stopping") stop();
  });
}
