/* Scorekeeper's service worker, served as /sw.js with VERSION and PRECACHE put in front.
   Online, every page and file comes from the network as before (so a phone always runs
   what the server serves); what came is kept, and served when the network is gone:
   the static files (one cache per VERSION) and the game pages this phone opened. */
/* global VERSION, PRECACHE, ScorekeeperQueue */
'use strict';
const STATIC = `static-${VERSION}`;
const PAGES = 'pages';
const GAME_PAGE = /^\/games\/[A-Za-z0-9_-]+$/;

importScripts(PRECACHE.find((url) => url.includes('/js/offline.js')));

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(STATIC);
    // Fresh from the server, not from the browser's HTTP cache: the new version's own files.
    await cache.addAll(PRECACHE.map((url) => new Request(url, { cache: 'reload' })));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('static-') && name !== STATIC) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

const staticPath = (url) => url.pathname.startsWith('/static/');

async function networkFirst(request, cacheName, key) {
  try {
    const response = await fetch(request);
    if (response.status === 200 && response.type === 'basic') {
      const copy = response.clone();
      caches.open(cacheName).then((cache) => cache.put(key, copy));
    }
    return response;
  } catch (err) {
    const kept = await caches.match(key, { cacheName, ignoreVary: true, ignoreSearch: true });
    if (kept) return kept;
    throw err;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (staticPath(url)) {
    event.respondWith(networkFirst(request, STATIC, url.pathname));
  } else if (GAME_PAGE.test(url.pathname)) {
    if (request.mode === 'navigate') {
      event.respondWith(networkFirst(request, PAGES, url.pathname));
    } else {
      // A page's live update: when it brings news (200, not 304), the kept page follows it.
      event.respondWith(fetch(request).then((response) => {
        if (response.status === 200) {
          const copy = response.clone();
          caches.open(PAGES).then((cache) => cache.put(url.pathname, copy));
        }
        return response;
      }));
    }
  }
});

// Background Sync, where the browser has it: the deals kept on this phone are sent even if
// the page was closed before the connection came back.
self.addEventListener('sync', (event) => {
  if (event.tag === 'scorekeeper-queue') event.waitUntil(ScorekeeperQueue.flushAll());
});
