// Freela's service worker (docs/product.md, "Aplicativo instalável"). It keeps only what is the
// same for everyone and never private: the build's fingerprinted files (/build/…, immutable) and
// the offline page. Pages and API answers always come from the network; a page that cannot be
// reached while offline shows the offline page. Registered as /sw.js?v=<build version>: a new
// build registers a new script, which takes over at once and drops the old build's files.
const VERSION = new URL(self.location.href).searchParams.get("v") || "dev";
const CACHE = `freela-${VERSION}`;
const OFFLINE = "/offline.html";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.add(new Request(OFFLINE, { cache: "reload" })))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((n) => n.startsWith("freela-") && n !== CACHE).map((n) => caches.delete(n))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/build/")) {
    // Fingerprinted: a name never changes its content, so the kept copy is always right.
    event.respondWith(
      caches.open(CACHE).then(async (cache) => {
        const kept = await cache.match(request);
        if (kept) return kept;
        const response = await fetch(request);
        if (response.ok) await cache.put(request, response.clone());
        return response;
      }),
    );
    return;
  }
  if (request.mode === "navigate") {
    // Always the network (pages are private or change); the offline page only when it fails.
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  }
});
