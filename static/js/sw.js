/* Scorekeeper's service worker, served as /sw.js with VERSION, PRECACHE and FACTS put in front.
   Online, every page and file comes from the network as before (so a phone always runs
   what the server serves); what came is saved offline, and served when the network is gone:
   the static files and the manifest (one cache per VERSION) and the game pages this phone
   opened. The network counts as gone when a request fails or no answer comes within WAIT,
   whatever navigator.onLine says. A deal form posted then is queued on the phone as the page
   keeps a deal entered offline, and answered with the game's page saved offline. */
/* global VERSION, PRECACHE, FACTS, ScorekeeperQueue */
'use strict';
const STATIC = `static-${VERSION}`;
const PAGES = 'pages';
const GAME_PAGE = /^\/games\/[A-Za-z0-9_-]+$/;
const MANIFEST = '/manifest.webmanifest';

// The queue (the same file the game page runs; its page, offline.js, is the page's alone).
importScripts(PRECACHE.find((url) => url.includes('/js/queue.js')));
// The facts the games' deals may carry, as the server declares them (web/offline.py).
ScorekeeperQueue.declare(FACTS);
const WAIT = ScorekeeperQueue.WAIT;

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

// When the network last failed or stayed silent for WAIT (0 once it answers): for a while after,
// what is saved offline is served at once, and the network asked behind it.
let failedAt = 0;
const down = () => Date.now() - failedAt < 30000;

// Nothing saved offline carries a key: a response its server says must not be stored (a page that hands the
// pencil over) is never saved offline, and a game page that says this phone only watches (its key is gone)
// drops what was saved offline for the game: the deals queued on the phone. The page saved offline is
// then that one.
const storable = (response) => !/no-store/i.test(response.headers.get('Cache-Control') || '');
function watching(response, url) {
  if (response.headers.get('Scorekeeper-Access') !== 'watch') return;
  const game = GAME_PAGE.test(url.pathname) && url.pathname.split('/')[2];
  if (game) ScorekeeperQueue.forget(game).catch(() => {});
}

// The network's answer (saved offline in `keep`'s cache when it is a whole page or file).
function fetchKeeping(request, keep) {
  return fetch(request).then((response) => {
    failedAt = 0;
    if (keep) watching(response, new URL(request.url));
    if (keep && response.status === 200 && response.type === 'basic' && storable(response)) {
      const copy = response.clone();
      caches.open(keep.cacheName).then((cache) => cache.put(keep.key, copy));
    }
    return response;
  }, (err) => { failedAt = Date.now(); throw err; });
}
// The answer, or a failure once WAIT passes without one (the answer may still come, and is saved offline).
function soon(answer) {
  answer.catch(() => {});
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { failedAt = Date.now(); reject(new Error('no answer')); }, WAIT);
    answer.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

const savedOffline = (cacheName, key) => caches.match(key, { cacheName, ignoreVary: true, ignoreSearch: true });

async function networkFirst(request, cacheName, key) {
  const answer = fetchKeeping(request, { cacheName, key });
  if (down()) {
    const copy = await savedOffline(cacheName, key);
    if (copy) { answer.catch(() => {}); return copy; }
  }
  try {
    return await soon(answer);
  } catch (err) {
    const copy = await savedOffline(cacheName, key);
    return copy || answer; // nothing saved offline: the network's answer, however long it takes
  }
}

// A deal form of the game page: posted as usual; if the post fails or no answer comes within
// WAIT, the deal is queued on the phone and the game's page shown with it, "not sent yet" (from
// the cache: the network just failed). A post that did reach the server is never sent twice:
// the game is read again before anything queued is sent, and a deal stored as entered is done.
async function postForm(request, path) {
  const body = request.clone();
  try {
    return await soon(fetchKeeping(request, null));
  } catch (err) {
    let page = null;
    try {
      page = await ScorekeeperQueue.keepForm(path, await body.formData());
    } catch (failed) { /* not a form this phone can keep */ }
    if (!page) throw err;
    if (self.registration.sync) self.registration.sync.register('scorekeeper-queue').catch(() => {});
    // #queued: the page says at once that the network has failed.
    return Response.redirect(new URL(`${page}#queued`, self.location.origin).href, 303);
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === 'POST') {
    if (request.mode === 'navigate' && ScorekeeperQueue.formGame(url.pathname)) {
      event.respondWith(postForm(request, url.pathname));
    }
    return;
  }
  if (request.method !== 'GET') return;
  if (staticPath(url) || url.pathname === MANIFEST) {
    // The manifest is the page's language's (/manifest.webmanifest): the last one fetched is saved offline.
    event.respondWith(networkFirst(request, STATIC, url.pathname));
  } else if (GAME_PAGE.test(url.pathname)) {
    if (request.mode === 'navigate') {
      event.respondWith(networkFirst(request, PAGES, url.pathname));
    } else {
      // A page's live update: when it brings news (200, not 304), the page saved offline follows it.
      event.respondWith(fetchKeeping(request, { cacheName: PAGES, key: url.pathname }));
    }
  }
});

// Background Sync, where the browser has it: the deals queued on this phone are sent even if
// the page was closed before the connection came back.
self.addEventListener('sync', (event) => {
  if (event.tag === 'scorekeeper-queue') event.waitUntil(ScorekeeperQueue.flushAll());
});
