/* Scorekeeper: deals entered while the phone cannot reach the server, kept on the phone
   (IndexedDB) and sent, in order, once it can. Loaded by the game page and by the service
   worker (Background Sync), after queue.js (ScorekeeperLogic: what a kept change is, how it is
   judged against the game as the server has it, what an answer means). Nothing here scores a
   deal: the server does, when it has it.

   Exactly once: every change carries an Idempotency-Key made when it was made; a request whose
   answer was lost is sent again as it was, under the same key, and the server answers it with
   its first answer and changes nothing (API.md). A replayed answer whose change the game no
   longer holds (the deal was undone or changed on another phone since) is said to the person,
   who enters it again or drops it. Before a change is sent, the game is read again: a deal
   already stored as entered is done, a deal another phone declared differently is a conflict
   the person settles. One sender at a time: the page's tabs and the service worker take the
   same Web Lock around a flush.

   The phone may believe it is online and have no route (Wi-Fi without an upstream, mobile
   data that hangs): every request here gives up after WAIT, and the service worker keeps a
   deal form whose post fails the same way (fromForm), so nothing depends on navigator.onLine. */
(function (root) {
  'use strict';
  const L = root.ScorekeeperLogic;
  const DB = 'scorekeeper', OPS = 'ops', GAMES = 'games';
  // How long a request may take before the network counts as gone (it may still arrive: it is
  // sent again under the same key, so a deal that did arrive is never stored twice).
  const WAIT = 8000;
  function timed(url, init) {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), WAIT);
    return fetch(url, { ...init, signal: stop.signal }).finally(() => clearTimeout(timer));
  }
  let opening = null;
  const asPromise = (req) => new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  function db() {
    if (!opening) {
      opening = new Promise((resolve, reject) => {
        const req = indexedDB.open(DB, 1);
        req.onupgradeneeded = () => {
          const ops = req.result.createObjectStore(OPS, { keyPath: 'id', autoIncrement: true });
          ops.createIndex('game', 'game');
          req.result.createObjectStore(GAMES, { keyPath: 'game' });
        };
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    }
    return opening;
  }
  async function store(name, mode) { return (await db()).transaction(name, mode).objectStore(name); }
  async function ops(game) {
    const list = await asPromise((await store(OPS, 'readonly')).index('game').getAll(game));
    return list.sort((a, b) => a.id - b.id);
  }
  // A change kept: it has its key from the moment it is made (one kept by an older script gets one).
  async function putOp(op) { return asPromise((await store(OPS, 'readwrite')).put(op.key ? op : { ...op, key: L.newKey() })); }
  async function deleteOp(id) { return asPromise((await store(OPS, 'readwrite')).delete(id)); }
  async function putGame(info) { return asPromise((await store(GAMES, 'readwrite')).put(info)); }
  async function getGame(game) { return asPromise((await store(GAMES, 'readonly')).get(game)); }
  async function allGames() { return asPromise((await store(GAMES, 'readonly')).getAll()); }
  // Fields of a kept change set in one transaction (what the person changed meanwhile stays).
  async function patch(id, fields) {
    const kept = await store(OPS, 'readwrite');
    const now = await asPromise(kept.get(id));
    return now ? asPromise(kept.put({ ...now, ...fields })) : undefined;
  }
  // Everything this phone kept for a game: dropped when it no longer holds the game's key.
  async function forget(game) {
    for (const op of await ops(game)) await deleteOp(op.id);
    return asPromise((await store(GAMES, 'readwrite')).delete(game));
  }

  // The game as the server has it now: deals as facts (counts by seat), contracts left, its tag.
  async function readState(info) {
    const r = await timed(info.api, { cache: 'no-store', headers: { 'Accept-Language': info.lang || 'en' } });
    if (!r.ok) throw new Error(`state ${r.status}`);
    const body = await r.json();
    const seats = (byName) => (byName ? info.players.map((name) => byName[name]) : null);
    const deal = (d) => {
      const kept = { number: d.number, contract: d.contract };
      L.FIELDS.slice(1).forEach((k) => { if (k in d) kept[k] = L.BY_SEAT.includes(k) ? seats(d[k]) : d[k]; });
      return kept;
    };
    return {
      // The game's version: a gzipped answer's tag has ':gzip' added (its bytes are another copy's).
      etag: (r.headers.get('ETag') || '').replace(/:gzip"$/, '"') || null,
      deals: body.deals.map(deal),
      remaining: info.players.map((name) => body.remaining_contracts[name] || []),
    };
  }

  async function send(info, req, key) {
    // The page's key cookie authorises it: the key itself never reaches a script.
    const url = req.method === 'POST' ? info.sync : `${info.sync}/${req.number}`;
    const headers = { 'Accept-Language': info.lang || 'en', 'Idempotency-Key': key };
    if (req.etag) headers['If-Match'] = req.etag;
    const named = {};
    if (req.body) {
      Object.entries(req.body).forEach(([k, v]) => {
        named[k] = L.BY_SEAT.includes(k) ? Object.fromEntries(info.players.map((name, seat) => [name, v[seat]])) : v;
      });
      headers['Content-Type'] = 'application/json';
    }
    const r = await timed(url, { method: req.method, headers, body: req.body ? JSON.stringify(named) : undefined,
      cache: 'no-store', credentials: 'same-origin' });
    let error = {};
    if (!r.ok) { try { error = (await r.json()).error || {}; } catch (err) { error = {}; } }
    return { ok: r.ok, status: r.status, code: error.code || '', message: error.message || String(r.status),
      replayed: (r.headers.get('Idempotent-Replayed') || '').toLowerCase() === 'true' };
  }

  // A change the server took is done, unless the person changed it while it was on its way
  // (corrected it, or entered the tricks of the deal it declared): what is left of it is then
  // a correction of the deal as the server now has it (`after`), a new change with a key of its
  // own, sent next. Read and settled in one transaction, so an edit cannot slip in between.
  const asked = (op) => JSON.stringify([op.kind, L.FIELDS.map((k) => (op[k] == null ? null : op[k]))]);
  async function sent(op, after) {
    const kept = await store(OPS, 'readwrite');
    const now = await asPromise(kept.get(op.id));
    if (!now) return undefined;
    if (now.kind === 'undo' || asked(now) === asked(op)) return asPromise(kept.delete(op.id));
    const { state, theirs, message, code, server, sending, key, ...rest } = now;
    return asPromise(kept.put({ ...rest, kind: 'correct', base: after, key: L.newKey(), sending: null }));
  }

  // One sender at a time for a game, across this phone's tabs and its service worker: a Web Lock
  // where the browser has them; elsewhere each page sends on its own, which the keys make harmless.
  function exclusive(game, task) {
    const locks = root.navigator && root.navigator.locks;
    if (locks && typeof locks.request === 'function') return locks.request(`scorekeeper-queue-${game}`, task);
    return task();
  }

  const running = {};
  // Sends the game's kept changes in order until none is left, one waits for the person
  // (a conflict, a refusal, a change undone elsewhere), or the network fails (thrown: try again later).
  function flush(game, onState) {
    if (!running[game]) {
      running[game] = exclusive(game, async () => {
        const info = await getGame(game);
        if (!info || !info.sync) return 'none';
        let races = 0;
        for (;;) {
          let op = (await ops(game))[0];
          if (!op) return 'empty';
          if (op.state) return 'blocked';
          if (!op.key) { op = { ...op, key: L.newKey() }; await patch(op.id, { key: op.key }); }
          const server = await readState(info);
          if (onState) onState(server);
          let req = op.sending;
          if (!req) {
            const verdict = L.judge(op, server);
            if (verdict.done) { await deleteOp(op.id); continue; }
            if (verdict.conflict) {
              await patch(op.id, { state: 'conflict', theirs: verdict.theirs });
              return 'blocked';
            }
            // Kept before it goes: if its answer is lost, this very request is sent again.
            req = L.request(verdict, server.etag);
            await patch(op.id, { sending: req });
          }
          const answer = await send(info, req, op.key);
          const now = answer.ok && !answer.replayed ? null : await readState(info);
          if (now && onState) onState(now);
          const outcome = now ? L.settle(req, answer, now, op.fromPage) : { done: true };
          if (outcome.done) { races = 0; await sent(op, req.after); continue; }
          if (outcome.gone) {
            await patch(op.id, { sending: null, key: L.newKey(), fromPage: false, state: 'gone', undone: outcome.undone, theirs: outcome.theirs });
            return 'blocked';
          }
          // Not applied: the change is judged again, under a key of its own.
          await patch(op.id, { sending: null, key: L.newKey(), fromPage: false });
          if (outcome.again) { races += 1; if (races < 4) continue; }
          await patch(op.id, { state: 'refused', message: answer.message, code: answer.code });
          return 'blocked';
        }
      }).finally(() => { delete running[game]; });
    }
    return running[game];
  }

  // Every game's kept changes; fails if the network did, so Background Sync tries again later.
  async function flushAll() {
    let failed = null;
    for (const info of await allGames()) {
      try { await flush(info.game); } catch (err) { failed = err; }
    }
    if (failed) throw failed;
  }

  // Keeps a posted form's change; resolves to the game's page address, or null if it is not
  // one this phone can keep (an unknown game, a form that is not a deal's).
  async function keepForm(path, form) {
    const which = L.formGame(path);
    const info = which && await getGame(which.game);
    const op = info && L.fromForm(path, form, info, { ops: await ops(which.game) });
    if (!op || !info.sync) return null;
    await putOp(op);
    return `/games/${op.game}`;
  }

  root.ScorekeeperQueue = { WAIT, formGame: L.formGame, ops, putOp, deleteOp, patch, putGame, getGame, forget, flush, flushAll,
    judge: L.judge, facts: L.facts, matches: L.matches, complete: L.complete, given: L.given, FIELDS: L.FIELDS, BY_SEAT: L.BY_SEAT, fromForm: L.fromForm, newKey: L.newKey, keepForm };
}(self));

/* The game page: the offline mark, the deals kept on this phone, entering the next ones. */
(function () {
  'use strict';
  if (typeof document === 'undefined') return;
  const d = document, b = d.body, Q = self.ScorekeeperQueue;
  if (!b.classList.contains('game-page') || !window.indexedDB || !self.Scorekeeper) return;
  const game = b.dataset.game;
  const seenKey = `sk-seen-${game}`;
  const note = d.getElementById('offline-status');
  let plan = null, list = [], editing = null, message = '', busySending = false;
  // A deal was just kept: the next card is put in view as the page puts a step (app.js, sk:step).
  let stepped = false;
  // The server could not be reached (a request failed, or no answer came), whatever
  // navigator.onLine says: the page is then as offline, until the server answers again.
  let unreachable = false;

  // The page's texts, in its language: app.js's t, over templates/_ui_strings.html (offline.* keys).
  const t = self.Scorekeeper.t;
  const readPlan = () => {
    const box = d.getElementById('offline-plan');
    try { return box ? JSON.parse(box.dataset.plan) : null; } catch (err) { return null; }
  };
  const seen = () => {
    try { localStorage.setItem(seenKey, new Date().toISOString()); } catch (err) { /* private mode */ }
  };
  const seenAt = () => {
    try { return localStorage.getItem(seenKey); } catch (err) { return null; }
  };
  const online = () => navigator.onLine !== false && !unreachable;
  const name = (seat) => plan.players[seat];
  const slot = (number) => plan.schedule[number - 1];
  const label = (id) => plan.contracts[id] || id;
  const shown = (count) => (count == null ? '?' : count); // a count left blank
  const SUITS = { clubs: '♣', diamonds: '♦', hearts: '♥', spades: '♠' };
  // A deal's contract as the log names it: a Kierki trump deal with its suit.
  const contractName = (deal) => label(deal.contract) + (deal.trumps ? ` ${SUITS[deal.trumps] || ''}` : '');
  // Kierki: the deal's facts are entered on one card (the engine's list for the deal: slot.fields).
  const kierki = (number) => slot(number).fields.length > 0;

  // The deals as this phone knows them: the server's, then what is kept here over them.
  function model() {
    const deals = plan.deals.map((deal) => ({ ...deal, server: true }));
    const undone = [];
    list.forEach((op) => {
      if (op.code === 'stale') return; // an old copy's form: said, never part of the game
      const i = op.number - 1;
      if (op.kind === 'record') {
        // Over the deal the server has declared (pending), its declaration kept: the bids, the suit.
        const base = deals[i] && deals[i].server && !Q.complete(deals[i]) && !op.state ? deals[i] : {};
        deals[i] = { number: op.number, ...Q.given(base, ['bids', 'trumps']), ...Q.given(op, Q.FIELDS),
          contract: op.contract || base.contract || slot(op.number).contract, op };
      } else if (op.kind === 'correct' && deals[i]) {
        deals[i] = { ...deals[i], ...Q.given(op, Q.FIELDS), op, corrected: true };
      } else if (op.kind === 'undo') {
        if (deals[i]) undone.push({ ...deals[i], op });
        deals.length = Math.min(deals.length, i);
      }
    });
    return { deals, undone };
  }
  function contractsLeft(deals, chooser) {
    const left = plan.remaining[chooser].slice();
    plan.deals.forEach((deal) => { if (slot(deal.number).chooser === chooser) left.push(deal.contract); });
    deals.forEach((deal) => {
      if (slot(deal.number).chooser !== chooser) return;
      const at = left.indexOf(deal.contract);
      if (at >= 0) left.splice(at, 1);
    });
    return left;
  }
  // The server's drawing of a part, cloned: <template id="offline-…"> (templates/web/_offline_templates.html).
  const drawn = (id, selector) => {
    const box = d.getElementById(id);
    return box ? Array.from(box.content.querySelectorAll(selector), (e) => e.cloneNode(true)) : [];
  };
  const dealPart = (number, selector) => {
    const box = d.getElementById('offline-deals');
    const part = box && box.content.querySelector(`[data-deal="${number}"] ${selector}`);
    return part ? part.cloneNode(true) : null;
  };

  // -- drawing ------------------------------------------------------------------------------
  // The counts of a deal, as the page draws them (#offline-numbers, in seat order): put in the deal's
  // bidding order, each seat given its role in the deal (#offline-deals).
  function numbers(kind, number, values, prefix, pending) {
    const s = slot(number), box = d.getElementById('offline-numbers');
    const source = box && box.content.querySelector(`fieldset[data-kind="${kind}"]`);
    if (!source) return d.createDocumentFragment();
    const fs = source.cloneNode(true);
    // As the page orders them: the counts of a deal with bids in its bidding order, others by seat.
    const order = s.bidding_order.length ? s.bidding_order : plan.players.map((_, seat) => seat);
    const end = fs.querySelector('[data-hint]');
    // A deal without bids is said to be one, as the page says it when it declares the deal.
    const unbid = kind === 'tricks' && !pending && !values && !s.bidding_order.length && box.content.querySelector('[data-unbid]');
    if (unbid && end) { end.textContent = unbid.textContent; }
    order.forEach((seat) => {
      const row = fs.querySelector(`.number-row[data-seat="${seat}"]`);
      const chips = row.nextElementSibling;
      // A seat's role beside its counts (Kierki's hearts, queens... as beside its tricks).
      let what = dealPart(number, `.what[data-what="${kind}-${seat}"]`) || (kind !== 'bids' && dealPart(number, `.what[data-what="tricks-${seat}"]`));
      if (what) what.dataset.what = `${kind}-${seat}`;
      if (kind === 'tricks' && pending) {
        // A kept pending deal: the seat's role with its bid, or its quota (the plan's, the engine's).
        const quotas = s.quotas && s.quotas[pending.contract];
        const key = pending.bids ? `[data-bid="${pending.bids[seat]}"]` : quotas ? `[data-quota="${quotas[seat]}"]` : null;
        const said = key && drawn('offline-seat-what', `[data-role="${s.roles[seat]}"]${key} .what`)[0];
        if (said) { said.dataset.what = `${kind}-${seat}`; what = said; }
      }
      if (what) row.querySelector('.what').replaceWith(what);
      const dealer = s.roles[seat] === 'dealer';
      row.classList.toggle('is-dealer', dealer);
      const input = row.querySelector('input');
      input.defaultValue = values && values[seat] != null ? String(values[seat]) : '';
      fs.insertBefore(row, end);
      if (chips && chips.classList.contains('count-chips')) fs.insertBefore(chips, end);
      if (kind === 'bids' && dealer) {
        input.dataset.dealer = '1';
        const note = box.content.querySelector(':scope > [data-forbidden-note]');
        if (note) fs.insertBefore(note.cloneNode(true), end);
      }
      if (kind === 'tricks' && pending && pending.bids) {
        const made = drawn('offline-seat-what', `[data-seat="${seat}"][data-bid="${pending.bids[seat]}"] .made-bid-row`)[0];
        if (made) { row.insertBefore(made, row.querySelector('.stepper')); row.classList.add('has-bid'); }
      }
    });
    // Drawn as "offline-tricks-0"; a correction's copy is "offline-fix-tricks-0".
    const own = (id) => id.replace(/^offline-/, `${prefix}-`);
    fs.querySelectorAll('[id]').forEach((e) => { e.id = own(e.id); });
    fs.querySelectorAll('label[for]').forEach((e) => { e.htmlFor = own(e.htmlFor); });
    fs.querySelectorAll('[data-target]').forEach((e) => { e.dataset.target = own(e.dataset.target); });
    fs.querySelectorAll('[data-for]').forEach((e) => { e.dataset.for = own(e.dataset.for); });
    fs.querySelectorAll('[aria-pressed]').forEach((e) => e.setAttribute('aria-pressed', 'false'));
    return fs;
  }
  const read = (form, kind) => {
    const inputs = Array.from(form.querySelectorAll(`fieldset[data-kind="${kind}"] input[type=number]`));
    if (!inputs.length) return null;
    const values = plan.players.map(() => null);
    inputs.forEach((input) => { values[+input.name.split('-')[1]] = /^\d+$/.test(input.value.trim()) ? +input.value : null; });
    return values;
  };
  // A Kierki deal's facts (`fields`, the engine's list, in its order) as the page draws them
  // (#offline-numbers): counts as numbers() draws them, a player or the suit by one tap; `values`
  // (a deal's facts) fills them in, for a correction.
  function factsFields(number, fields, values, prefix) {
    const box = d.getElementById('offline-numbers'), part = d.createDocumentFragment();
    fields.forEach((field) => {
      if (Q.BY_SEAT.includes(field)) { part.append(numbers(field, number, values && values[field], prefix)); return; }
      box.content.querySelectorAll(`fieldset.takers[data-field="${field}"]`).forEach((source, i) => {
        const fs = source.cloneNode(true);
        const chosen = !values ? null : field === 'places' ? (values.places || [])[i] : values[field];
        fs.querySelectorAll('input').forEach((input) => {
          input.id = input.id.replace(/^offline-/, `${prefix}-`);
          input.defaultChecked = chosen != null && (field === 'trumps' ? input.value === chosen : name(+input.value) === chosen);
        });
        part.append(fs);
      });
    });
    return part;
  }
  // A Kierki form's facts as the API takes them: counts by seat (a count left wholly blank is not
  // given: a trump deal saved with its suit alone), a player by name, the suit.
  function readFacts(form) {
    const out = {};
    form.querySelectorAll('fieldset[data-kind]').forEach((fs) => {
      const values = read(form, fs.dataset.kind);
      if (values && values.some((n) => n !== null)) out[fs.dataset.kind] = values;
    });
    form.querySelectorAll('fieldset.takers[data-field]').forEach((fs) => {
      const field = fs.dataset.field, chosen = fs.querySelector('input:checked');
      const value = !chosen ? null : field === 'trumps' ? chosen.value : name(+chosen.value);
      if (field === 'places') {
        out.places = out.places || [null, null];
        out.places[+fs.querySelector('input').name.split('-')[1]] = value;
      } else if (value !== null) out[field] = value;
    });
    if (out.places && out.places.every((who) => who === null)) delete out.places;
    return out;
  }
  function forbidden(form, number) {
    const s = slot(number), bids = read(form, 'bids');
    if (!bids || s.hook_total == null) return null;
    const others = bids.filter((bid, seat) => seat !== s.dealer);
    if (others.includes(null)) return null;
    const bid = s.hook_total - others.reduce((a, n) => a + n, 0);
    return bid >= 0 && bid <= plan.tricks_per_deal ? bid : null;
  }
  function showForbidden(form, number) {
    const dealer = form.querySelector('input[data-dealer]');
    if (!dealer) return;
    const bid = forbidden(form, number), s = slot(number);
    if (bid === null) delete dealer.dataset.forbidden; else dealer.dataset.forbidden = String(bid);
    const chips = form.querySelector(`.count-chips[data-for="${dealer.id}"]`);
    if (chips) chips.querySelectorAll('button').forEach((c) => { c.disabled = bid !== null && c.value === String(bid); });
    const say = form.querySelector('[data-forbidden-note]');
    if (say) {
      say.hidden = bid === null;
      say.textContent = bid === null ? '' : t('offline.forbidden', { player: name(s.dealer), bid, total: s.hook_total });
    }
  }
  // What a form holds, checked for what a person can see at a glance (every box filled, every
  // player tapped, the counts add up), said at the field that is wrong; the rules themselves are
  // the server's, which judges the deal when it arrives (Kierki's robber: R1-R3).
  function check(form, number) {
    const error = form.querySelector('.offline-error');
    const say = (text, field) => {
      const legend = field && field.querySelector('legend');
      if (legend) legend.after(error);
      error.textContent = text;
      error.hidden = !text;
      return !text;
    };
    const suit = form.querySelector('fieldset[data-field="trumps"]');
    for (const fs of form.querySelectorAll('fieldset[data-kind]')) {
      const kind = fs.dataset.kind, values = read(form, kind);
      // A trump deal's tricks left wholly blank: its suit saved alone (the cards are being played).
      if (kind === 'tricks' && suit && values.every((n) => n === null)) continue;
      if (values.includes(null)) return say(t('offline.fill_all'), fs);
      const total = kind === 'bids' ? null : (plan.totals || {})[kind] || plan.tricks_per_deal;
      if (total !== null && values.reduce((a, n) => a + n, 0) !== total) {
        return say(kind === 'tricks' ? t('offline.tricks_sum', { total })
          : t('offline.count_sum', { what: fs.querySelector('legend').textContent.trim(), total }), fs);
      }
      if (kind === 'bids' && values[slot(number).dealer] === forbidden(form, number)) {
        return say(t('offline.forbidden', { player: name(slot(number).dealer), bid: forbidden(form, number), total: slot(number).hook_total }), fs);
      }
    }
    const out = [];
    for (const fs of form.querySelectorAll('fieldset.takers[data-field]')) {
      const field = fs.dataset.field, chosen = fs.querySelector('input:checked');
      if (!chosen) return say(field === 'trumps' ? t('offline.tap_trumps') : field === 'places' ? t('offline.places') : t('offline.tap_player'), fs);
      if (field === 'places' && out.includes(chosen.value)) return say(t('offline.places_twice', { player: name(+chosen.value) }), fs);
      if (field === 'places') out.push(chosen.value);
    }
    return say('');
  }

  // A deal's words as the page says them (#offline-deals): its headings, its button, its legend.
  const dealText = (number, selector) => { const e = dealPart(number, selector); return e ? e.textContent : ''; };
  // A part of the page's drawing, cloned, its text slots filled: text only, never markup.
  const fill = (root, selector, text) => {
    const e = root.querySelector(selector);
    if (!e) return null;
    if (text === null) { e.remove(); return null; }
    e.textContent = text;
    return e;
  };
  // What a seat took in a deal, as the log says it short ("5 tr"; Kierki's "4 ♥", "1 Q", "K♥",
  // "1st out"); "playing…" while the deal is played.
  function took(deal, seat) {
    if (!Q.complete(deal)) return t('offline.playing');
    const who = name(seat), bits = [];
    if (deal.tricks) bits.push(t('offline.tricks_short', { tricks: shown(deal.tricks[seat]) }));
    if (deal.hearts) bits.push(`${shown(deal.hearts[seat])} ♥`);
    if (deal.queens) bits.push(t('offline.queens_short', { tricks: shown(deal.queens[seat]) }));
    if (deal.kings_jacks) bits.push(t('offline.kings_jacks_short', { tricks: shown(deal.kings_jacks[seat]) }));
    if (deal.king_of_hearts === who) bits.push(t('offline.king_of_hearts_mark'));
    if (deal.seventh_trick === who) bits.push(t('offline.seventh_trick_mark'));
    if (deal.last_trick === who) bits.push(t('offline.last_trick_mark'));
    (deal.places || []).forEach((out, place) => { if (out === who) bits.push(place ? t('offline.second_out') : t('offline.first_out')); });
    // Each item kept whole on its line ("2 Q", "1st out"), as the page's log keeps them.
    return bits.map((bit) => bit.replace(/ /g, '\u00a0')).join(' ');
  }
  function describe(deal) {
    if (!deal) return '';
    const figures = plan.players.map((who, seat) => {
      const bits = [];
      if (deal.bids) bits.push(t('offline.bid_short', { bid: shown(deal.bids[seat]) }));
      bits.push(took(deal, seat));
      return [who, bits.filter(Boolean).join(', ')].filter(Boolean).join(' ');
    });
    return `${contractName(deal)}: ${figures.join(' · ')}`;
  }

  function logBody() {
    let table = d.querySelector('#live table.log');
    if (!table) {
      const section = d.getElementById('log-heading') && d.getElementById('log-heading').closest('section');
      const wrap = drawn('offline-log', 'div.table-wrap')[0];
      if (!section || !wrap) return null;
      const empty = section.querySelector('p.empty');
      if (empty) { empty.hidden = true; empty.dataset.offlineHidden = '1'; }
      section.querySelector('h2').after(wrap);
      table = wrap.querySelector('table');
    }
    return table.tBodies[0];
  }
  // A deal kept on this phone, in the log (#offline-log-row): its figures as entered, not scored.
  function row(deal, badge, id) {
    const tr = drawn('offline-log-row', 'tr')[0];
    tr.id = id || `offline-deal-${deal.number}`;
    if (!Q.complete(deal)) tr.classList.add('pending');
    fill(tr, 'th', String(deal.number));
    fill(tr, '.contract-name', contractName(deal));
    const who = dealPart(deal.number, 'span.deal-who');
    if (who) tr.querySelector('span.deal-who').replaceWith(who);
    fill(tr, '.badge', badge);
    const fix = tr.querySelector('button.fix');
    if (badge === t('offline.undo_not_sent')) fix.remove();
    else {
      fix.dataset.offlineCorrect = deal.number;
      fix.setAttribute('aria-label', t('offline.correct_deal', { number: deal.number }));
    }
    tr.querySelectorAll('td.fig').forEach((td, seat) => {
      fill(td, '.bid', deal.bids ? t('offline.bid_short', { bid: shown(deal.bids[seat]) }) : null);
      fill(td, '.tricks', took(deal, seat));
    });
    return tr;
  }
  function drawLog(m) {
    d.querySelectorAll('.offline-row').forEach((e) => e.remove());
    d.querySelectorAll('[data-offline-hidden]').forEach((e) => { e.hidden = false; delete e.dataset.offlineHidden; });
    const body = logBody();
    if (!body) return;
    const place = (tr, number) => {
      const server = d.getElementById(`deal-${number}`);
      if (server) { server.after(tr); server.hidden = true; server.dataset.offlineHidden = '1'; } else body.append(tr);
    };
    m.deals.forEach((deal) => {
      if (deal.op) place(row(deal, deal.corrected ? t('offline.correction_not_sent') : t('offline.not_sent')), deal.number);
      else if (!d.getElementById(`deal-${deal.number}`)) place(row(deal, t('offline.sent_row')), deal.number);
    });
    // Its own id: the deal played again in its place has the deal's.
    m.undone.forEach((deal) => place(row(deal, t('offline.undo_not_sent'), `offline-undone-${deal.number}`), deal.number));
    // A deal the server has but this phone undid: drawn struck through until sent.
  }

  // The entry card as the page draws it for the deal the table is on (#offline-card, web/_entry.html).
  function entryCard(number) {
    const card = drawn('offline-card', 'section.offline-card')[0];
    const form = card.querySelector('form');
    form.dataset.number = number;
    card.querySelectorAll('ol.schedule > li').forEach((li, i) => {
      li.className = i + 1 === number ? 'now' : i + 1 < number ? 'done' : '';
      if (i + 1 === number) li.setAttribute('aria-current', 'step');
    });
    return { card, form, heading: card.querySelector('h1'), error: form.querySelector('.offline-error'), actions: form.querySelector('p.actions') };
  }
  function entryForm(m) {
    const deals = m.deals, last = deals[deals.length - 1];
    const pending = last && !Q.complete(last) ? last : null;
    const number = pending ? pending.number : deals.length + 1;
    const { card, form, heading, error, actions } = entryCard(number);
    if (number > plan.deal_count) {
      card.replaceChildren(...drawn('offline-card', 'p[data-finished]'));
      return card;
    }
    const s = slot(number);
    // A chooser's last contract is chosen already: its counts at once, as online.
    const left = !pending && s.chooser !== null ? contractsLeft(deals, s.chooser) : [];
    const only = left.length === 1 ? left[0] : null;
    // As online: who deals and leads under the heading, what the contract asks under the form.
    const contract = pending ? pending.contract : s.contract || only;
    const roles = dealPart(number, 'p.roles'), asks = contract && drawn('offline-descriptions', `[data-contract="${contract}"]`)[0];
    if (roles) card.querySelector('.card-head').after(roles);
    if (asks) form.after(asks);
    const save = actions.querySelector('button');
    if (kierki(number)) {
      // As online: every fact of the deal on one card; a trump deal's suit may be saved alone, its
      // tricks then asked on their own.
      heading.textContent = dealText(number, pending && pending.trumps ? `[data-text="pending"][data-trumps="${pending.trumps}"]` : '[data-text="declare"]');
      form.dataset.step = pending ? 'tricks' : 'facts';
      form.insertBefore(factsFields(number, pending ? s.fields.filter((f) => f !== 'trumps') : s.fields, null, 'offline'), error);
      save.textContent = dealText(number, '[data-text="save"]');
    } else if (pending) {
      heading.textContent = dealText(number, `[data-text="pending"][data-contract="${pending.contract}"]`);
      form.dataset.step = 'tricks';
      form.insertBefore(numbers('tricks', number, null, 'offline', pending), error);
      save.textContent = dealText(number, '[data-text="save"]');
    } else if (only) {
      heading.textContent = dealText(number, `[data-text="pending"][data-contract="${only}"]`);
      form.dataset.step = 'tricks';
      form.dataset.contract = only;
      form.insertBefore(numbers('tricks', number, null, 'offline', { contract: only }), error);
      save.textContent = dealText(number, '[data-text="save"]');
    } else if (s.chooser !== null) {
      heading.textContent = dealText(number, '[data-text="declare"]');
      form.dataset.step = 'contract';
      const fieldset = drawn('offline-contracts', 'fieldset.contracts')[0];
      const box = fieldset.querySelector('.contract-buttons');
      box.querySelectorAll('button.contract').forEach((button) => { if (!left.includes(button.value)) button.remove(); });
      const buttons = box.querySelectorAll('button.contract');
      if (buttons.length === 1) {
        box.classList.add('single');
        buttons[0].classList.add('primary');
        buttons[0].setAttribute('autofocus', '');
      }
      fill(fieldset, 'legend', dealText(number, buttons.length === 1 ? '[data-text="last-contract"]' : '[data-text="contracts-left"]'));
      form.replaceChildren(fieldset);
    } else {
      heading.textContent = dealText(number, '[data-text="declare"]');
      form.dataset.step = s.bidding_order.length ? 'bids' : 'tricks';
      form.insertBefore(numbers(form.dataset.step, number, null, 'offline'), error);
      save.textContent = form.dataset.step === 'bids' ? t('offline.save_bids') : dealText(number, '[data-text="save"]');
    }
    return card;
  }

  // Undo, asked as the page asks it online: the question, then a button that says what it does.
  function undoBox(m) {
    const last = m.deals[m.deals.length - 1];
    const box = last && drawn('offline-undo', 'details')[0];
    if (!box) return null;
    const s = slot(last.number), number = last.number, contract = label(last.contract);
    fill(box, 'summary', t('offline.undo', { number }));
    fill(box, 'p', s.chooser !== null ? t('offline.undo_confirm_chosen', { number, contract, player: name(s.chooser) })
      : t('offline.undo_confirm', { number, contract }));
    fill(box, 'button', t('offline.undo_yes', { number }));
    box.querySelector('form').dataset.offlineUndo = number;
    return box;
  }

  function editor(m, number) {
    const deal = m.deals[number - 1];
    if (!deal) return null;
    const s = slot(number);
    const { card, form, heading, error, actions } = entryCard(number);
    heading.textContent = t('offline.correct_deal', { number });
    form.dataset.step = 'correct';
    card.querySelectorAll('ol.schedule').forEach((e) => e.remove());
    actions.remove();
    if (s.chooser !== null && !kierki(number)) {
      const field = drawn('offline-correct', 'p.field')[0];
      const select = field.querySelector('select');
      const options = Array.from(select.options);
      const choices = [deal.contract, ...contractsLeft(m.deals, s.chooser)];
      select.replaceChildren(...choices.map((c) => options.find((o) => o.value === c)).filter(Boolean));
      select.value = deal.contract;
      form.insertBefore(field, error);
    }
    if (kierki(number)) form.insertBefore(factsFields(number, s.fields, deal, 'offline-fix'), error);
    if (deal.bids) form.insertBefore(numbers('bids', number, deal.bids, 'offline-fix'), error);
    if (deal.tricks && !kierki(number)) form.insertBefore(numbers('tricks', number, deal.tricks, 'offline-fix'), error);
    form.append(...drawn('offline-correct', 'p.actions'));
    return card;
  }

  // A kept change that waits for the scorer (#offline-conflict): what happened, both versions, the choices.
  function blockedPanel(op) {
    const box = drawn('offline-conflict', '.offline-conflict')[0];
    const mine = op.kind === 'undo' ? t('offline.undo', { number: op.number })
      : describe({ ...Q.facts(op), contract: op.contract || (op.theirs && op.theirs.contract) || slot(op.number).contract });
    const theirs = op.theirs ? describe(op.theirs) : t('offline.none', { number: op.number });
    const choice = (which, text, attr) => {
      const button = fill(box, `[data-choice="${which}"]`, text);
      if (button) button.setAttribute(attr, attr === 'data-offline-correct' ? op.number : op.id);
    };
    const none = null;
    if (op.state === 'gone') {
      fill(box, '[data-fill="what"]', op.undone ? t('offline.undone_elsewhere', { number: op.number }) : t('offline.changed_elsewhere', { number: op.number }));
      fill(box, '[data-fill="theirs"]', theirs);
      fill(box, '[data-fill="mine"]', mine);
      fill(box, '[data-fill="mine-alone"]', none);
      choice('again', t('offline.enter_again', { number: op.number }), 'data-offline-again');
      choice('correct', none);
      choice('keep', t('offline.drop', { number: op.number }), 'data-offline-keep');
      choice('mine', none);
    } else if (op.state === 'conflict') {
      fill(box, '[data-fill="what"]', op.kind === 'undo' ? t('offline.conflict_undo', { number: op.number }) : t('offline.conflict', { number: op.number }));
      fill(box, '[data-fill="theirs"]', theirs);
      fill(box, '[data-fill="mine"]', mine);
      fill(box, '[data-fill="mine-alone"]', none);
      choice('again', none);
      choice('correct', none);
      choice('keep', t('offline.keep_theirs'), 'data-offline-keep');
      choice('mine', op.theirs ? (op.kind === 'undo' ? t('offline.undo_anyway') : t('offline.use_mine', { number: op.number })) : none, 'data-offline-mine');
    } else {
      const why = op.code === 'incomplete' ? t('offline.fill_all') : op.code === 'stale' ? t('offline.stale', { last: op.last }) : op.message;
      fill(box, '[data-fill="what"]', t('offline.refused', { number: op.number, message: why }));
      fill(box, 'dl.versions', none);
      fill(box, '[data-fill="mine-alone"]', mine);
      choice('again', none);
      choice('correct', op.kind === 'undo' || op.code === 'stale' ? none : t('offline.correct_deal', { number: op.number }), 'data-offline-correct');
      choice('keep', op.kind === 'undo' || op.code === 'stale' ? t('offline.discard_change') : t('offline.discard', { number: op.number }), 'data-offline-keep');
      choice('mine', none);
    }
    return box;
  }

  function status() {
    if (!note) return;
    const kept = list.filter((op) => op.code !== 'stale').map((op) => `#${op.number}`);
    const parts = [];
    if (!online()) {
      const at = seenAt();
      parts.push(at ? t('offline.offline', { time: new Date(at).toLocaleTimeString(d.documentElement.lang || undefined, { hour: '2-digit', minute: '2-digit' }) })
        : t('offline.offline_never'));
    }
    if (kept.length) parts.push(t('offline.kept', { deals: Array.from(new Set(kept)).join(', ') }));
    if (kept.length && online()) parts.push(busySending ? t('offline.sending') : '');
    if (!kept.length && online() && message) parts.push(message);
    const text = parts.filter(Boolean).join(' ');
    note.textContent = text;
    note.hidden = !text;
    note.classList.toggle('is-offline', !online());
  }

  // The page's own drawing stands while it is current and nothing waits on this phone; until the
  // page is drawn again after a send, the deals just sent show from the server's state as read.
  let drawnTag = null; // the API's tag of the game as the page was drawn
  const stale = () => drawnTag !== null && plan.etag !== drawnTag;
  const active = () => !!plan && !!plan.sync && (list.length > 0 || !online() || editing !== null || stale());
  function render() {
    plan = plan || readPlan();
    status();
    d.querySelectorAll('#offline-turn, .offline-conflict, .offline-undo').forEach((e) => e.remove());
    const live = d.getElementById('live');
    const serverTurn = live && live.querySelector('section.turn:not(.offline-card)');
    // Every undo the server drew (the log's, and the one near the top right after a save): each
    // names the server's last deal, which the deals kept on this phone may no longer be.
    const undos = live ? Array.from(live.querySelectorAll('details.undo:not(.offline-undo)')) : [];
    const undo = undos.find((e) => !e.closest('[data-undo-now]'));
    if (!active() || !live) {
      board(null);
      grid(null);
      d.querySelectorAll('.offline-row, .offline-undo').forEach((e) => e.remove());
      d.querySelectorAll('[data-offline-hidden]').forEach((e) => { e.hidden = false; delete e.dataset.offlineHidden; });
      if (serverTurn) serverTurn.hidden = false;
      return;
    }
    const m = model();
    drawLog(m);
    if (serverTurn) { serverTurn.hidden = true; serverTurn.dataset.offlineHidden = '1'; }
    // The undo offered right after a save is old news once the entry moves on without the server.
    d.querySelectorAll('[data-undo-now]').forEach((e) => e.remove());
    undos.forEach((e) => { e.hidden = true; e.dataset.offlineHidden = '1'; });
    const card = (editing !== null && editor(m, editing)) || entryForm(m);
    board(m);
    grid(m);
    // "Deal 3 recorded." is old news while the entry has moved on without the server.
    d.querySelectorAll('.flashes').forEach((box) => box.remove());
    if (undo) {
      const box = undoBox(m);
      if (box) undo.before(box);
    } else {
      const box = undoBox(m), log = d.getElementById('log-heading');
      if (box && log) log.closest('section').append(box);
    }
    const blocked = list.find((op) => op.state);
    if (blocked) card.prepend(blockedPanel(blocked));
    const scores = live.querySelector('.scoreboard');
    const anchor = serverTurn || live.querySelector('section.final') || (scores && scores.nextElementSibling);
    if (anchor) anchor.before(card); else live.prepend(card);
    card.dispatchEvent(new CustomEvent('sk:enhance', { bubbles: true }));
    if (stepped && editing === null) card.dispatchEvent(new CustomEvent('sk:step', { bubbles: true }));
    stepped = false;
  }

  // The sticky scoreboard follows the entry: the deal it is on, its roles (as the server draws them,
  // from the schedule's templates), and totals said to be the server's until the kept deals are sent.
  let boardAsDrawn = null;
  function board(m) {
    const live = d.getElementById('live'), box = live && live.querySelector('section.scoreboard');
    if (!box) return;
    if (!m) {
      if (boardAsDrawn && box.dataset.offline) box.replaceWith(boardAsDrawn);
      boardAsDrawn = null;
      return;
    }
    if (!boardAsDrawn || !box.dataset.offline) boardAsDrawn = box.cloneNode(true);
    const fresh = boardAsDrawn.cloneNode(true);
    fresh.dataset.offline = '1';
    const deals = m.deals, last = deals[deals.length - 1];
    const pending = last && !Q.complete(last) ? last : null;
    const number = pending ? pending.number : deals.length + 1;
    const line = number <= plan.deal_count ? dealPart(number, 'p.deal-no') : null;
    const no = fresh.querySelector('p.deal-no');
    if (line && no) {
      if (pending) line.append(` · ${label(pending.contract)}`);
      no.replaceWith(line);
    }
    fresh.querySelectorAll('li.total').forEach((li, seat) => {
      // The deal's role, as the server draws it; a seat without one keeps what the totals shown say ("Ahead").
      const role = number <= plan.deal_count ? dealPart(number, `li[data-seat="${seat}"] .role`) : null;
      const standing = li.querySelector('.role:not([class*="role-"])');
      li.querySelectorAll('.role').forEach((e) => e.remove());
      if (role) li.append(role); else if (standing) li.append(standing);
    });
    const unsent = deals.filter((deal) => deal.op && Q.complete(deal)).map((deal) => `#${deal.number}`);
    const undone = m.undone.length > 0;
    if (unsent.length || undone) {
      const scored = plan.deals.filter(Q.complete).length;
      fresh.classList.add('not-scored');
      const said = drawn('offline-card', 'p.offline-not-scored')[0];
      if (said) { said.textContent = t('offline.not_scored', { number: scored, deals: unsent.join(', ') || '–' }); fresh.append(said); }
    }
    box.replaceWith(fresh);
  }

  // Mizerka's contracts table follows the deals as this phone knows them: a contract kept here is
  // in its chooser's box ("#5 …", scored when sent), one undone or changed here leaves its box.
  let gridAsDrawn = null;
  function grid(m) {
    const live = d.getElementById('live'), box = live && live.querySelector('table.grid:not(.parts)');
    if (!box) return;
    if (!m) {
      if (gridAsDrawn && box.dataset.offline) box.replaceWith(gridAsDrawn);
      gridAsDrawn = null;
      return;
    }
    if (!gridAsDrawn || !box.dataset.offline) gridAsDrawn = box.cloneNode(true);
    const fresh = gridAsDrawn.cloneNode(true);
    fresh.dataset.offline = '1';
    const columns = Array.from(fresh.tHead.rows[0].cells);
    const cell = (deal) => {
      const chooser = slot(deal.number).chooser;
      const column = columns.findIndex((th) => th.classList.contains(`c-${deal.contract}`));
      const row = chooser !== null && fresh.tBodies[0].rows[chooser];
      return row && column > 0 ? row.cells[column] : null;
    };
    const open = fresh.querySelector('td.box.open');
    plan.deals.forEach((deal, i) => {
      const now = m.deals[i], at = cell(deal);
      if (at && open && (!now || now.contract !== deal.contract)) at.replaceWith(open.cloneNode(true));
    });
    m.deals.filter((deal) => deal.op && deal.contract).forEach((deal) => {
      const at = cell(deal);
      if (!at) return;
      const mark = at.cloneNode(false);
      mark.className = 'box used';
      mark.textContent = `#${deal.number} …`;
      at.replaceWith(mark);
    });
    box.replaceWith(fresh);
  }

  async function reload() {
    list = await Q.ops(game);
    render();
  }

  // -- keeping what is entered --------------------------------------------------------------
  // What sending needs, and what the service worker needs to keep a deal form it could not post
  // (the deals as this page shows them: an undo is checked against the deal the scorer saw).
  function remember() {
    if (!plan || !plan.sync) return;
    Q.putGame({ game, api: plan.api, sync: plan.sync, players: plan.players, lang: plan.lang,
      version: plan.version, deals: plan.deals }).catch(() => {});
  }
  async function keep(op) {
    // Made now, with its key: sent again under the same key, it is never applied twice.
    await Q.putOp({ game, at: new Date().toISOString(), version: plan.version, base: null, ...op, key: Q.newKey(), sending: null });
    await reload();
    sync();
    if (navigator.serviceWorker && navigator.serviceWorker.ready) {
      navigator.serviceWorker.ready.then((reg) => reg.sync && reg.sync.register('scorekeeper-queue')).catch(() => {});
    }
  }
  const opFor = (number, kinds) => list.slice().reverse().find((op) => op.number === number && kinds.includes(op.kind));

  async function submitted(form, submitter) {
    const number = +form.dataset.number, step = form.dataset.step;
    if (step === 'contract') {
      stepped = true;
      await keep({ kind: 'record', number, contract: submitter && submitter.value });
      return;
    }
    if (!check(form, number)) return;
    stepped = step !== 'correct';
    const bids = read(form, 'bids'), tricks = read(form, 'tricks');
    // What the form gives: Kierki's facts, or the bids and the tricks.
    const entered = kierki(number) ? readFacts(form) : { bids, tricks };
    const m = model(), deal = m.deals[number - 1];
    if (step === 'correct') {
      const select = form.querySelector('select[name=contract]');
      const change = { contract: select ? select.value : null, ...entered };
      const mine = opFor(number, ['record', 'correct']);
      editing = null;
      if (mine) {
        const merged = { ...mine, state: undefined, theirs: undefined, message: undefined, ...Q.given(change, Q.FIELDS) };
        await Q.putOp(merged);
        await reload();
        sync();
      } else {
        await keep({ kind: 'correct', number, ...change, base: Q.facts(deal) });
      }
      return;
    }
    const mine = opFor(number, ['record']);
    const result = kierki(number) ? entered : { tricks };
    if (step === 'tricks' && mine && !Q.complete(mine) && !mine.state) {
      // The result of a deal declared on this phone and not sent yet: one deal, one request.
      await Q.putOp({ ...mine, ...result });
      await reload();
      sync();
    } else if (step === 'tricks' && deal && !Q.complete(deal)) {
      // The result of a deal declared as the page shows it: for that declaration only.
      await keep({ kind: 'record', number, contract: deal.contract, bids: deal.bids, ...Q.given(deal, ['trumps']), ...result,
        base: deal.server ? Q.facts(deal) : null });
    } else if (step === 'facts') {
      // A Kierki deal: its facts as entered (a trump deal with its suit alone is declared, pending).
      await keep({ kind: 'record', number, contract: slot(number).contract, ...entered });
    } else {
      // A deal without a declaration, or a chooser's last contract (the form carries it) with its tricks.
      await keep({ kind: 'record', number, contract: form.dataset.contract || null, bids: step === 'bids' ? bids : null, tricks: step === 'tricks' ? tricks : null });
    }
  }

  async function undo(number) {
    const mine = opFor(number, ['record']);
    const later = list.filter((op) => op.number === number && op !== mine);
    if (mine && !mine.state) {
      await Promise.all([mine, ...later].map((op) => Q.deleteOp(op.id)));
      await reload();
      return;
    }
    await Promise.all(later.map((op) => Q.deleteOp(op.id)));
    await keep({ kind: 'undo', number, base: Q.facts(plan.deals[number - 1]) });
  }

  // -- sending ------------------------------------------------------------------------------
  const adopt = (server) => {
    // The server's state, read while sending: what was sent shows as sent until the page is drawn again.
    plan = { ...plan, etag: server.etag, deals: server.deals, remaining: server.remaining };
    unreachable = false;
    seen();
    remember();
  };
  async function sync() {
    if (!plan || !plan.sync || navigator.onLine === false) return;
    list = await Q.ops(game);
    // Sent in order up to the first change that waits for the scorer (the page says why).
    if (!list.length || list[0].state) { render(); return; }
    busySending = true;
    status();
    let outcome = '';
    try {
      outcome = await Q.flush(game, adopt);
    } catch (err) {
      outcome = 'offline';
    }
    busySending = false;
    list = await Q.ops(game);
    message = outcome === 'empty' ? t('offline.sent') : outcome === 'offline' ? t('offline.waiting') : '';
    if (outcome === 'offline') unreachable = true;
    render();
    if (outcome === 'empty') d.dispatchEvent(new CustomEvent('sk:refresh'));
  }

  d.addEventListener('submit', (e) => {
    const asked = e.target.closest && e.target.closest('form[data-offline-undo]');
    if (asked) { e.preventDefault(); undo(+asked.dataset.offlineUndo); return; }
    const form = e.target.closest && e.target.closest('form.offline-form');
    if (!form) return;
    e.preventDefault();
    submitted(form, e.submitter);
  });
  d.addEventListener('input', (e) => {
    const form = e.target.closest && e.target.closest('form.offline-form');
    if (form && e.target.closest('fieldset[data-kind="bids"]')) showForbidden(form, +form.dataset.number);
  });
  d.addEventListener('click', (e) => {
    const t0 = e.target.closest ? e.target : null;
    if (!t0) return;
    const fix = t0.closest('[data-offline-correct], #live a.fix');
    if (fix && active()) {
      e.preventDefault();
      const number = fix.dataset.offlineCorrect ? +fix.dataset.offlineCorrect : +(fix.closest('tr').id.replace('deal-', ''));
      editing = number;
      render();
      const card = d.getElementById('offline-turn');
      if (card) card.scrollIntoView({ block: 'start' });
      return;
    }
    if (t0.closest('[data-offline-cancel]')) { editing = null; render(); return; }
    const again = t0.closest('[data-offline-again]');
    if (again) {
      // Entered again, as a new change (its key was renewed when the first was found undone).
      Q.patch(+again.dataset.offlineAgain, { state: undefined, theirs: undefined, undone: undefined, sending: null })
        .then(reload).then(sync);
      return;
    }
    const keepBtn = t0.closest('[data-offline-keep]');
    const mineBtn = t0.closest('[data-offline-mine]');
    const op = (keepBtn || mineBtn) && list.find((o) => o.id === +(keepBtn || mineBtn).dataset[keepBtn ? 'offlineKeep' : 'offlineMine']);
    if (op && keepBtn) {
      // The server's version stands; what this phone had entered is dropped, by the person's choice.
      Q.deleteOp(op.id).then(reload).then(sync);
    } else if (op && mineBtn) {
      const fields = op.kind === 'undo' ? { kind: 'undo' } : { kind: 'correct', ...Q.given(op, Q.FIELDS), contract: op.contract || op.theirs.contract };
      Q.putOp({ id: op.id, game, number: op.number, at: op.at, version: op.version, ...fields, base: op.theirs, key: Q.newKey(), sending: null })
        .then(reload).then(sync);
    }
  });

  let nudged = 0;
  const nudge = () => { if (list.length && Date.now() - nudged > 5000) { nudged = Date.now(); sync(); } };
  window.addEventListener('online', () => { render(); sync(); });
  window.addEventListener('offline', render);
  d.addEventListener('pointerdown', nudge, { passive: true });
  d.addEventListener('visibilitychange', () => { if (!d.hidden) nudge(); });
  // The page's live update reached the server: whatever this phone kept can go now.
  d.addEventListener('sk:fresh', () => {
    seen();
    if (unreachable) { unreachable = false; render(); }
    if (list.length) sync();
  });
  d.addEventListener('sk:live', () => {
    const fresh = readPlan();
    if (fresh) { plan = fresh; drawnTag = fresh.etag; }
    boardAsDrawn = null;
    gridAsDrawn = null;
    if (b.dataset.editable === '0') forgetAll(); else remember();
    render();
  });
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.addEventListener('message', (e) => { if (e.data === 'scorekeeper-queue') reload(); });
  }

  plan = readPlan();
  drawnTag = plan ? plan.etag : null;
  // The server says this phone only watches (its key is gone): nothing is kept for the game.
  const forgetAll = () => { list = []; Q.forget(game).catch(() => {}); };
  // Shown by the service worker from its cache, with a deal just kept: the network has failed.
  if (location.hash === '#kept') {
    unreachable = true;
    history.replaceState(null, '', location.pathname + location.search);
  }
  if (online()) seen();
  else d.querySelectorAll('.flashes').forEach((box) => box.remove()); // the kept page's, old news
  // The first visit is not yet the service worker's to keep: the page keeps itself, once.
  if (online() && window.caches && window.isSecureContext && navigator.serviceWorker && !navigator.serviceWorker.controller) {
    caches.open('pages').then((cache) => cache.add(location.pathname)).catch(() => {});
  }
  if (b.dataset.editable === '0') forgetAll();
  else remember();
  reload().then(sync).catch(() => {});
}());
