/* Scorekeeper: the game page: its live updates (conditional GETs, answered 304 while nothing
   changed), the screen left on, sharing, the standings' picture, and the offline entry (queue.js,
   offline_parts.js, offline.js: loaded from here). Loaded after app.js and entry.js. */
(() => {
  'use strict';
  const d = document, b = d.body;
  const all = (sel, root) => Array.from((root || d).querySelectorAll(sel));
  const t = self.Scorekeeper.t;
  if (!b.classList.contains('game-page')) return;

  // A refused post draws the game page at the post's address: the address becomes the game's,
  // so reloading opens the game instead of posting the form again.
  if (b.dataset.address && location.pathname !== b.dataset.address) {
    history.replaceState(null, '', b.dataset.address + location.hash);
  }

  // Deals entered without a connection (queued on the phone, sent when it is back).
  // At once where a deal may be entered next (or the phone is offline, or the worker just queued a
  // Save); on a watching phone or a finished game only once the page is idle, so the offline
  // entry's scripts never hold up the first screen there.
  if (b.dataset.offline && window.fetch) {
    const loadOffline = () => {
      // queue.js (the queue), offline_parts.js (its parts), then offline.js: in that order, as
      // scripts added here run.
      [b.dataset.queue, b.dataset.offlineParts, b.dataset.offline].filter(Boolean).forEach((src) => {
        const script = d.createElement('script');
        script.src = src;
        script.async = false;
        d.head.append(script);
      });
    };
    const needed = (b.dataset.pencil === '1' && !b.dataset.finished) || navigator.onLine === false || location.hash === '#queued';
    if (needed) loadOffline();
    else window.addEventListener('load', () => {
      if (window.requestIdleCallback) requestIdleCallback(loadOffline, { timeout: 4000 });
      else setTimeout(loadOffline, 1500);
    });
  }
  const https = d.querySelector('[data-https-note]');
  if (https && !window.isSecureContext) {
    // Said once on this phone: entering deals offline across a reload needs the service worker.
    try {
      if (!localStorage.getItem('sk-https-note')) { https.hidden = false; localStorage.setItem('sk-https-note', '1'); }
    } catch (err) { /* storage refused: say nothing */ }
  }

  // A finished game's standings as a picture: its script, fetched at the first tap, takes the button over.
  const standings = d.querySelector('[data-standings]');
  if (standings) {
    standings.hidden = false;
    standings.onclick = () => { const s = d.createElement('script'); s.src = standings.dataset.standings; d.head.append(s); };
  }

  // A short message at the foot of the screen that pushes nothing aside.
  const toast = (...parts) => {
    let box = d.getElementById('toast');
    if (!box) {
      box = d.createElement('p');
      box.id = 'toast';
      box.className = 'flash flash-info toast';
      box.setAttribute('role', 'status');
      b.append(box);
    }
    box.replaceChildren(...parts);
    box.hidden = false;
    return box;
  };

  // Keep the screen on while the phone lies on the table. The Wake Lock API needs a secure
  // context; served over plain http on the Wi-Fi it is missing, and a muted, looping blank
  // video from our own origin does the same job (as NoSleep.js does), started by a tap.
  let video = null;
  const note = d.querySelector('[data-awake-note]');
  const awakeByVideo = () => {
    if (!b.dataset.awake) return;
    if (!video) {
      video = d.createElement('video');
      video.muted = true;
      video.loop = true;
      video.setAttribute('playsinline', '');
      video.setAttribute('muted', '');
      ['webm', 'mp4'].forEach((type) => {
        const source = d.createElement('source');
        source.src = `${b.dataset.awake}.${type}`;
        source.type = `video/${type}`;
        video.append(source);
      });
    }
    video.play().then(() => { if (note) note.hidden = true; })
      .catch(() => { if (note) note.hidden = false; });
  };
  const wake = () => {
    if (d.hidden) return;
    if (navigator.wakeLock) navigator.wakeLock.request('screen').catch(() => {});
    else if (video && !video.paused) return;
    else awakeByVideo();
  };
  wake();
  if (!navigator.wakeLock) {
    // A video may only start from a tap: the first one on the page starts it.
    d.addEventListener('pointerdown', wake, { passive: true });
    d.addEventListener('keydown', wake);
  }

  // Share: the phone's own share sheet, else the link copied, else the panel with the QR codes.
  const copy = (text) => {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    const area = d.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'visually-hidden';
    b.append(area);
    area.select();
    const done = d.execCommand('copy');
    area.remove();
    return done ? Promise.resolve() : Promise.reject(new Error('copy'));
  };
  const openPanel = () => {
    const panel = d.getElementById('share');
    const details = panel && panel.closest('details');
    if (details) { details.open = true; details.scrollIntoView({ block: 'start' }); }
  };
  d.addEventListener('click', (e) => {
    const button = e.target.closest && e.target.closest('[data-share]');
    if (!button) return;
    e.preventDefault();
    const url = button.dataset.share;
    if (navigator.share) {
      navigator.share({ title: d.title, url }).catch((err) => { if (err && err.name !== 'AbortError') openPanel(); });
      return;
    }
    copy(url).then(() => {
      const box = toast(t('share.copied'));
      setTimeout(() => { box.hidden = true; }, 4000);
    }).catch(openPanel);
  });

  // Live updates: conditional GETs, answered 304 while nothing changed.
  const live = d.getElementById('live');
  const period = parseInt(b.dataset.poll, 10);
  let timer = 0, running = false, fresh = null, notice = null, later = 0;
  // The page's own tag, as the server wrote it on the page (data-etag).
  let etag = b.dataset.etag || '';
  const busy = () => {
    const a = d.activeElement;
    return (a && live.contains(a) && a.matches('input, select, textarea')) ||
      !!live.querySelector('details[open]') || all('input[type=number]', live).some((i) => i.value !== '') ||
      !!live.querySelector('form input[type=radio]:checked, form input[type=checkbox]:checked');
  };
  const apply = () => {
    if (!fresh) return;
    if (busy()) {
      // At the foot of the screen, over the page: the form being typed into does not move.
      if (!notice) {
        const reload = d.createElement('a');
        reload.href = '';
        reload.textContent = t('live.reload');
        notice = toast(`${t('live.updated')} `, reload);
      }
      return;
    }
    live.innerHTML = fresh.getElementById('live').innerHTML;
    ['version', 'pencil', 'etag'].forEach((k) => { if (fresh.body.dataset[k]) b.dataset[k] = fresh.body.dataset[k]; });
    fresh = null;
    if (notice) { notice.hidden = true; notice = null; }
    // "Deal 12 recorded." is old news once deal 13 arrived from another phone.
    all('.flashes').forEach((box) => box.remove());
    // The new parts enhanced as the page's first ones were (entry.js), then said to be there.
    live.dispatchEvent(new CustomEvent('sk:enhance', { bubbles: true }));
    d.dispatchEvent(new CustomEvent('sk:live'));
  };
  const poll = async () => {
    if (running || d.hidden || navigator.onLine === false) { schedule(); return; }
    running = true;
    // A network that takes the request and never answers must not stop the updates for good.
    const stop = window.AbortController ? new AbortController() : null;
    const limit = stop && setTimeout(() => stop.abort(), 10000);
    try {
      const r = await fetch(location.pathname, {
        headers: etag ? { 'If-None-Match': etag, 'X-Scorekeeper-Poll': '1' } : { 'X-Scorekeeper-Poll': '1' },
        cache: 'no-store', credentials: 'same-origin', signal: stop && stop.signal });
      if (r.status === 200) {
        const doc = new DOMParser().parseFromString(await r.text(), 'text/html');
        if (doc.getElementById('live')) fresh = doc;
      }
      if (r.status === 200 || r.status === 304) {
        etag = r.headers.get('ETag') || etag;
        d.dispatchEvent(new CustomEvent('sk:fresh'));
      }
      // A busy server asks its phones to come back later (503, Retry-After: seconds): the next poll waits that long.
      const wait = r.status === 503 ? parseInt(r.headers.get('Retry-After'), 10) : 0;
      later = wait > 0 ? Math.min(wait, 60) * 1000 : 0;
    } catch (err) { /* offline: try again next time */ }
    clearTimeout(limit);
    running = false;
    apply();
    schedule();
  };
  const schedule = () => {
    clearTimeout(timer);
    if (!d.hidden) timer = setTimeout(poll, Math.max(period, later));
    later = 0;
  };
  const polling = live && period > 0 && window.fetch && window.DOMParser;
  d.addEventListener('visibilitychange', () => {
    if (d.hidden) { clearTimeout(timer); return; }
    wake();
    if (polling) poll();
  });
  if (polling) schedule();
  // The offline entry sent what it queued: the page is drawn again from the server.
  d.addEventListener('sk:refresh', () => { if (polling) poll(); else if (live && !busy()) location.reload(); });
})();
