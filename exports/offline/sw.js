// The site's service worker (exports/offline.py): a lesson opened once opens again offline.
//
// The build writes VERSION (a digest of every file of the site) and KEEP (what every
// interactive page needs besides its own files: Pyodide's core and lock, the mirror's wheels
// and index, the library's wheel), relative to this file. A new build is a new VERSION: a new
// cache, the old one deleted once this worker takes over.
//
// Pages: fetched from the network when it answers (and kept), from the cache when it does not.
// Everything else (versioned by the build, and by name under _marimo/assets): from the cache
// when kept, else from the network. A live page posts what it loaded ({keep: [urls]}), and
// later what it loads after; the worker keeps those and KEEP, so the second visit needs no
// network at all.
const VERSION = "__VERSION__";
const KEEP = __KEEP__;
const CACHE = `asyncfail-${VERSION}`;

// Pages end so; WebAssembly is the file this worker must answer from its cache (`cacheFirst`).
const PAGES = ["/", ".html", ".json"];
const COMPILED = ".wasm";

// Files other than pages and WebAssembly never reach this worker where the browser has static
// routes (Chromium 123 on): the browser answers them from this version's cache itself, or from
// the network when not kept, without waiting on this worker's thread. Passed through the worker
// while Pyodide starts, marimo's 300-odd scripts cost lesson 1's first visit 0.3-0.7 s on this
// machine (exports/README.md, "Offline on the second visit"). Elsewhere, or should the browser
// refuse the routes, `cacheFirst` answers them the same way and keeps each as it passes.
async function route(event) {
  const ending = (end) => ({ urlPattern: { pathname: `*${end}` } });
  const mine = [...PAGES, COMPILED].map(ending);
  await event.addRoutes({
    condition: { not: { or: [...mine, { not: { requestMethod: "GET" } }] } },
    source: { cacheName: CACHE },
  });
}

self.addEventListener("install", (event) => {
  // Refused, the routes leave every request to the fetch handler below.
  if (event.addRoutes) route(event).catch(() => {});
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("asyncfail-") && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

const isPage = (url) => PAGES.some((end) => url.pathname.endsWith(end));

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  event.respondWith(isPage(url) ? networkFirst(request) : cacheFirst(request, event));
});

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.status === 200) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(request, { ignoreSearch: true });
    if (kept) return kept;
    throw error;
  }
}

// WebAssembly (Pyodide's core) fetched is answered from the cache once kept, not with the
// network's response: Chromium keeps the compiled module beside the cached response it was
// compiled from, so the second visit reads the compiled code instead of compiling again (a trace
// shows the module read from the cache; answered with the network's response, it was compiled
// again). Every other file is answered with the network's response as it arrives, and kept
// meanwhile: answered from the cache too, each of marimo's 300-odd scripts waited to be written
// before the page read it, and lesson 1's first visit went live about 0.5 s later, for a second
// visit 0-0.4 s sooner (exports/README.md, "Offline on the second visit").
async function cacheFirst(request, event) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.status !== 200) return response;
  if (!new URL(request.url).pathname.endsWith(COMPILED)) {
    event.waitUntil(cache.put(request, response.clone()));
    return response;
  }
  await cache.put(request, response.clone());
  return (await cache.match(request)) || response;
}

self.addEventListener("message", (event) => {
  const urls = (event.data && event.data.keep) || [];
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const wanted = [...urls, ...KEEP.map((path) => new URL(path, self.location).href)];
      for (const href of new Set(wanted)) {
        const url = new URL(href);
        if (url.origin !== self.location.origin || (await cache.match(url.href))) continue;
        try {
          const response = await fetch(url.href);
          if (response.status === 200) await cache.put(url.href, response);
        } catch {
          // offline already: kept next time
        }
      }
      if (event.source) event.source.postMessage({ kept: VERSION });
    })(),
  );
});
