// sw.js — precaches the build's hashed assets and the page, so that after one visit the
// studio and the surface pages open without the network (SPEC §2.8). BUILD and ASSETS are filled in by the build.
const BUILD = "{{BUILD}}";
const ASSETS = {{ASSETS}};
const CACHE = "webcoding-" + BUILD;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("webcoding-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  if (req.mode === "navigate") {
    // Network first for a page (a new deployment is picked up), the cached copy of that page
    // offline. Each page of the site (the studio "./", "live/", "realtime/") is cached under its
    // own URL without query or fragment, so opening one page never replaces another's copy.
    const page = new URL(req.url);
    page.search = "";
    page.hash = "";
    event.respondWith(
      fetch(req).then((res) => {
        if (res.ok) {
          const copy = res.clone();
          caches.open(CACHE).then((c) => c.put(page.href, copy));
        }
        return res;
      }).catch(() => caches.match(page.href).then((hit) => hit || caches.match("./"))),
    );
    return;
  }
  // Hashed assets never change: cache first.
  event.respondWith(caches.match(req).then((hit) => hit || fetch(req)));
});
