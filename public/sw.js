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

// Push notifications (docs/product.md, section 6): the server sends { title, body, url }, url a
// path of this site. Shown as a notification; a click focuses an open tab of the app (taking it to
// the url) or opens one. Never a link to another site.
const sameOrigin = (url) => {
  try {
    const target = new URL(url || "/", self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + "/";
  } catch {
    return self.location.origin + "/";
  }
};

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  event.waitUntil(
    self.registration.showNotification(data.title || "Freela", {
      body: data.body || "",
      data: { url: sameOrigin(data.url) },
      icon: "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = sameOrigin(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((tabs) => {
      const tab = tabs.find((c) => new URL(c.url).origin === self.location.origin);
      if (tab) {
        // Led to the link, then brought forward. A tab this worker does not control cannot be
        // navigated (it is only brought forward); one the browser will not focus still navigates.
        return tab
          .navigate(url)
          .catch(() => tab)
          .then((client) => (client || tab).focus())
          .catch(() => undefined);
      }
      return self.clients.openWindow(url);
    }),
  );
});
