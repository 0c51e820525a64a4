// DSA's service worker: the app shell and the last pages and reports read, for reading offline.
//
// - Next's build assets and the icons: cache first (their URLs change with their content).
// - Pages (navigations) and report reads (GET /api/v1/history/…): network first; the copy is kept for offline
//   reading, the newest MAX_ENTRIES of each, and marked X-DSA-Offline-Copy when served offline. A page never read
//   here gets a short offline notice with a link to the home page.
// - Nothing else of the API is cached, nor any request carrying its own Authorization (another client's token).
// - A login or logout clears the pages and reads: what one signed-in user read is never shown to the next.
// - Web Push: a push shows its notification; a click opens the page it names.

const VERSION = "dsa-sw-1";
const STATIC_CACHE = `${VERSION}-static`;
const PAGE_CACHE = `${VERSION}-pages`;
const READ_CACHE = `${VERSION}-reads`;
const MAX_ENTRIES = 40;

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set([STATIC_CACHE, PAGE_CACHE, READ_CACHE]);
      for (const name of await caches.keys()) if (!keep.has(name)) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

function isStatic(url) {
  return url.pathname.startsWith("/_next/static/") || url.pathname.startsWith("/icons/") || url.pathname === "/favicon.ico";
}

function isReportRead(url) {
  return url.pathname.startsWith("/api/v1/history/") && !url.pathname.endsWith("/share.png");
}

function isAuthChange(url) {
  return url.pathname === "/api/v1/auth/login" || url.pathname === "/api/v1/auth/logout";
}

async function trim(cacheName) {
  const cache = await caches.open(cacheName);
  const keys = await cache.keys();
  for (const key of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) await cache.delete(key);
}

// Only a complete answer of this origin that is not a redirect (a login page in place of the page asked for).
function keepable(response) {
  return response && response.ok && response.type === "basic" && !response.redirected;
}

async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (keepable(response)) {
    const cache = await caches.open(STATIC_CACHE);
    await cache.put(request, response.clone());
  }
  return response;
}

async function networkFirst(request, cacheName, fallback) {
  try {
    const response = await fetch(request);
    if (keepable(response)) {
      const cache = await caches.open(cacheName);
      // Re-inserted so the newest read is last (trim drops from the front).
      await cache.delete(request);
      await cache.put(request, response.clone());
      await trim(cacheName);
    }
    return response;
  } catch (error) {
    const cached = await caches.match(request, { ignoreVary: true });
    if (cached) return offlineCopy(cached);
    if (fallback) return fallback();
    throw error;
  }
}

// Marks an answer served from the offline copy (X-DSA-Offline-Copy), for the page and for whoever debugs it.
function offlineCopy(cached) {
  const headers = new Headers(cached.headers);
  headers.set("x-dsa-offline-copy", "1");
  return new Response(cached.body, { status: cached.status, statusText: cached.statusText, headers });
}

async function offlinePage() {
  return new Response(
    '<!doctype html><html lang="zh-CN"><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
      "<title>DSA</title><body style=\"font-family:sans-serif;padding:1rem\"><p>离线：这个页面还没有离线副本。" +
      'Offline: this page has not been read here yet.</p><p><a href="/">DSA</a></p></body></html>',
    { status: 503, headers: { "content-type": "text/html; charset=utf-8", "x-dsa-offline-copy": "0" } },
  );
}

async function clearReads() {
  await caches.delete(PAGE_CACHE);
  await caches.delete(READ_CACHE);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    if (request.method === "POST" && isAuthChange(url)) {
      event.respondWith(
        // Cleared whatever the answer: after any sign-in attempt or sign-out, the next reader starts empty.
        fetch(request).finally(clearReads),
      );
    }
    return;
  }
  if (request.headers.has("authorization")) return;
  if (isStatic(url)) event.respondWith(cacheFirst(request));
  else if (request.mode === "navigate") event.respondWith(networkFirst(request, PAGE_CACHE, offlinePage));
  else if (isReportRead(url)) event.respondWith(networkFirst(request, READ_CACHE));
});

// The page that registered the worker names what it loaded before the worker controlled it (the first visit):
// the page itself and its scripts, styles and fonts, so the shell opens offline after one visit.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "cache-urls" && Array.isArray(data.urls)) {
    event.waitUntil(
      (async () => {
        for (const href of data.urls.slice(0, 200)) {
          const url = new URL(href, self.location.origin);
          if (url.origin !== self.location.origin) continue;
          const cacheName = isStatic(url) ? STATIC_CACHE : data.page === href ? PAGE_CACHE : null;
          if (!cacheName || (await caches.match(url.href))) continue;
          try {
            // A page asks for HTML: GET / without it is the API's root document.
            const headers = cacheName === PAGE_CACHE ? { accept: "text/html" } : {};
            const response = await fetch(url.href, { credentials: "same-origin", headers });
            if (keepable(response)) await (await caches.open(cacheName)).put(url.href, response);
          } catch {
            // Offline already: nothing to keep.
          }
        }
      })(),
    );
  }
  if (data.type === "clear-reads") event.waitUntil(clearReads());
});

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { title: "DSA", body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(
    self.registration.showNotification(message.title || "DSA", {
      body: message.body || "",
      icon: "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
      tag: message.tag || undefined,
      data: { url: message.url || "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      for (const client of windows) {
        if (new URL(client.url).origin === target.origin && "focus" in client) {
          await client.focus();
          if ("navigate" in client) await client.navigate(target.href);
          return;
        }
      }
      await self.clients.openWindow(target.href);
    })(),
  );
});
