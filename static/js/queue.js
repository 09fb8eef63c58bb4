/* Scorekeeper: the changes a phone keeps while it cannot reach the server, and their sending.
   Loaded by the game page (before offline_parts.js and offline.js, its page), by the service
   worker (importScripts: Background Sync, and a deal form whose post failed) and by Node
   (tests/js). No page here: the logic is pure (no storage, no network), and the queue keeps the
   changes in IndexedDB and sends them through the API, both taken from `open`'s surroundings
   (the browser's own, or a test's). Nothing here scores a deal: the server does, when it has it.

   A queued change (an "op") says what the scorer asked for and what the page showed when it was
   made: { kind: 'record' | 'correct' | 'undo', number, contract, bids, tricks, version,
   base: the deal as the page showed it (null: no such deal), key: its Idempotency-Key,
   sending: the request last sent with that key whose answer never came (sent again as it was) }.
   Bids and tricks are by seat. A deal may have more facts (API.md K4), as its game declares them
   (`declare`: the page's offline plan, the worker's FACTS): its counts by seat too, its takers and
   orders of players by name, a suit named.

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
(function (root, factory) {
  'use strict';
  const queue = factory(root);
  if (typeof module === 'object' && module.exports) module.exports = queue;
  else root.ScorekeeperQueue = queue;
}(typeof self !== 'undefined' ? self : this, (root) => {
  'use strict';

  // An Idempotency-Key (API.md): 1-64 of [A-Za-z0-9_-], made once per change and stored with it,
  // so a change sent again is the same change to the server (it is never applied twice).
  const KEY = /^[A-Za-z0-9_-]{1,64}$/;
  function newKey(source) {
    const c = source || (typeof crypto !== 'undefined' ? crypto : null);
    if (c && typeof c.randomUUID === 'function') return c.randomUUID();
    if (c && typeof c.getRandomValues === 'function') {
      // randomUUID needs a secure context; getRandomValues does not (a page on the Wi-Fi over http).
      const bytes = c.getRandomValues(new Uint8Array(18));
      return Array.from(bytes, (n) => n.toString(16).padStart(2, '0')).join('');
    }
    let text = '';
    while (text.length < 36) text += Math.random().toString(36).slice(2);
    return text.slice(0, 36);
  }

  // What a deal's result may be (the tricks, and the counts, takers and orders a game declares), and
  // what a change may give: these, the contract, the bids and what declares a deal beside its contract
  // (before its cards are played: the bids, a suit named). Counts are by seat. The games' facts come
  // from the server (`declare`); the lists grow in place, so every reader sees them.
  const RESULTS = ['tricks'];
  const FIELDS = ['contract', 'bids', 'tricks'];
  const BY_SEAT = ['bids', 'tricks'];
  const DECLARATION = ['bids'];
  // The facts beyond contract, bids and tricks, and each one's declaration ({ id, kind, declared, places }).
  const MORE = [];
  const FACT_BY_ID = {};
  function declare(facts) {
    (facts || []).forEach((fact) => {
      if (FIELDS.includes(fact.id)) return;
      FACT_BY_ID[fact.id] = fact;
      FIELDS.push(fact.id);
      MORE.push(fact.id);
      (fact.declared ? DECLARATION : RESULTS).push(fact.id);
      if (fact.kind === 'count') BY_SEAT.push(fact.id);
    });
  }
  const same = (a, b) => JSON.stringify(a == null ? null : a) === JSON.stringify(b == null ? null : b);
  // The fields of `from` among `names` that are given (not null).
  const given = (from, names) => Object.fromEntries(names.filter((k) => from && from[k] != null).map((k) => [k, from[k]]));
  // A deal's facts: contract, bids and tricks (null when not given), and whichever more facts it has.
  const facts = (deal) => (deal ? { contract: deal.contract || null, bids: deal.bids || null, tricks: deal.tricks || null,
    ...given(deal, MORE) } : null);
  // Whether a deal's result is in (a deal without one is pending: the cards are being played).
  const complete = (deal) => !!deal && RESULTS.some((k) => deal[k] != null);
  const matches = (deal, want) => !!deal && (want.contract == null || deal.contract === want.contract) &&
    FIELDS.slice(1).every((k) => same(deal[k], want[k]));
  // The declaration of a deal (its contract, bids, trump suit): what another phone's result must not land on.
  const declared = (deal, seen) => !!deal && !!seen && deal.contract === seen.contract &&
    DECLARATION.every((k) => same(deal[k], seen[k]));

  // What to do with a change, given the game as the server has it now ({ deals: facts by number
  // order }): { done } (the server holds it already), { send: [method, number, body], after: the
  // deal as it will then be }, or { conflict, theirs } (the person settles it).
  function judge(op, server) {
    const n = op.number, deal = server.deals[n - 1];
    const conflict = { conflict: true, theirs: facts(deal) };
    if (op.kind === 'record') {
      // Made on a deal the page showed as the server's: that deal, declared as it was, or nothing.
      if (op.base && !declared(deal, op.base)) return conflict;
      if (deal) {
        const declaration = given(op, ['contract', ...DECLARATION]);
        if (Object.entries(declaration).some(([k, v]) => !same(deal[k], v))) return conflict;
        const result = given(op, RESULTS);
        if (!complete(op) || RESULTS.every((k) => same(deal[k], result[k]))) return { done: true };
        return complete(deal) ? conflict : { send: ['PUT', n, result], after: { ...facts(deal), ...result } };
      }
      if (server.deals.length + 1 !== n) return conflict;
      const body = { number: n, ...given(op, FIELDS) };
      return { send: ['POST', n, body], after: facts(body) };
    }
    if (op.kind === 'correct') {
      if (!deal) return conflict;
      const body = given(op, FIELDS), want = { ...facts(deal), ...body };
      if (matches(deal, want)) return { done: true };
      if (op.base && !matches(deal, op.base)) return conflict;
      return { send: ['PUT', n, body], after: facts(want) };
    }
    // undo
    if (server.deals.length < n) return { done: true };
    if (server.deals.length === n && (!op.base || matches(deal, op.base))) return { send: ['DELETE', n], after: null };
    return conflict;
  }

  // The request a verdict sends, as stored with the change until its answer comes: sent again
  // exactly so (same key, same If-Match) when the answer was lost.
  const request = (verdict, etag) => ({ method: verdict.send[0], number: verdict.send[1], body: verdict.send[2] || null,
    etag: etag || null, after: verdict.after === undefined ? null : verdict.after });

  // Whether the game as the server has it holds what `sent` made: a deal stored as sent, or gone
  // when an undo was sent.
  function holds(sent, server) {
    const deal = server.deals[sent.number - 1];
    if (sent.method === 'DELETE') return server.deals.length < sent.number;
    return !!deal && matches(deal, sent.after || {});
  }

  // What an answer to `sent` means, given the game as read after it (`server`):
  //   { done }            stored (or already stored exactly as sent: a second sender was first);
  //   { gone, theirs }    applied once, earlier, and since undone or changed on another phone
  //                       (a replayed answer whose change the game no longer holds);
  //   { again }           not applied (the game changed before it arrived, or the key was spent):
  //                       judge the change again, under a new key;
  //   { refused }         the server refuses it: the person corrects or discards it.
  // `fromPage`: the change was a page form's, queued under the key the server put in the form; the
  // key taken for another request is then that form, which reached the server after all.
  function settle(sent, answer, server, fromPage) {
    const gone = () => ({ gone: true, undone: server.deals.length < sent.number, theirs: facts(server.deals[sent.number - 1]) });
    if (answer.ok) {
      if (!answer.replayed || holds(sent, server)) return { done: true };
      return gone();
    }
    if (holds(sent, server)) return { done: true };
    if (fromPage && answer.code === 'idempotency_key_reused') return gone();
    if (answer.code === 'idempotency_key_reused' || answer.status === 409 || answer.status === 412) return { again: true };
    return { refused: true };
  }

  // A deal form of the game page, as the change it asks for, when its post cannot reach the server:
  // the same change the page keeps when offline. `path` is the form's action; `form` its fields
  // (FormData, or anything with has/get); `info` the game as the page showed it ({ game, players,
  // version, deals }). Null when it is not a change this phone can keep.
  const FORMS = [
    [/^\/games\/([\w-]+)\/deals$/, 'record'],
    [/^\/games\/([\w-]+)\/deals\/(\d+)\/tricks$/, 'tricks'],
    [/^\/games\/([\w-]+)\/undo$/, 'undo'],
    [/^\/games\/([\w-]+)\/deals\/(\d+)\/edit$/, 'correct'],
  ];
  // The number of the last deal this phone knows: the server's `deals` as last read, then the
  // changes queued here (`ops`, in order) over them.
  function lastDeal(deals, ops) {
    return ops.reduce((last, op) => (op.kind === 'record' ? Math.max(last, op.number)
      : op.kind === 'undo' && !op.state ? Math.min(last, op.number - 1) : last), deals.length);
  }
  const whole = (value) => (typeof value === 'string' && /^\s*\d{1,6}\s*$/.test(value) ? parseInt(value, 10) : null);
  function formGame(path) {
    for (const [pattern, kind] of FORMS) {
      const found = pattern.exec(path);
      if (found) return { game: found[1], kind, number: found[2] ? +found[2] : null };
    }
    return null;
  }
  function fromForm(path, form, info, options) {
    const which = formGame(path);
    if (!which || !info || info.game !== which.game || !info.players) return null;
    const counts = (kind) => (info.players.some((who, seat) => form.has(`${kind}-${seat}`))
      ? info.players.map((who, seat) => whole(form.get(`${kind}-${seat}`))) : null);
    // A form of a deal's facts (forms.DealFacts): a count left wholly blank is not given (a trump deal saved
    // with its suit alone); a player is posted by seat, queued by name; an order by place (`<fact>-0`...).
    const inputs = (k) => (['count', 'order'].includes(FACT_BY_ID[k].kind)
      ? Array.from({ length: FACT_BY_ID[k].kind === 'order' ? FACT_BY_ID[k].places : info.players.length }, (_, i) => `${k}-${i}`) : [k]);
    const moreFacts = MORE.some((k) => form.has(inputs(k)[0]));
    const count = (kind) => { const c = counts(kind); return moreFacts && c && c.every((n) => n === null) ? null : c; };
    const player = (value) => { const seat = whole(value); return seat !== null && seat < info.players.length ? info.players[seat] : null; };
    const more = () => {
      if (!moreFacts) return {};
      const out = {};
      MORE.forEach((k) => {
        const kind = FACT_BY_ID[k].kind;
        if (kind === 'count') out[k] = count(k);
        else if (kind === 'player') out[k] = player(form.get(k));
        else if (kind === 'order') { if (inputs(k).some((n) => form.has(n))) out[k] = inputs(k).map((n) => player(form.get(n))); }
        else if (kind === 'pairs') out[k] = pairs(form.getAll ? form.getAll(k) : []);
        else out[k] = form.get(k) || null;
      });
      return given(out, FIELDS);
    };
    // Side bets posted as seats ("1-0", its redouble "1-0R"), queued by name.
    const pairs = (posted) => posted.filter((v) => !/R$/.test(v)).map((v) => {
      const [by, against] = v.split('-');
      return { by: player(by), against: player(against), redoubled: posted.includes(`${v}R`) };
    });
        const blanks = (fields) => BY_SEAT.some((k) => fields[k] && fields[k].includes(null));
    const number = which.number || whole(form.get('number'));
    if (!number) return null;
    const seen = (info.deals && info.deals[number - 1]) || null;
    // The key the server put into the form: if the post did reach the server, the queued change is
    // that post, never a second one.
    const formKey = form.get('idempotency_key');
    const fromPage = typeof formKey === 'string' && KEY.test(formKey);
    const op = { game: which.game, at: (options && options.at) || new Date().toISOString(),
      version: whole(form.get('version')) || info.version || null, number,
      key: fromPage ? formKey : newKey(options && options.crypto), fromPage, sending: null };
    // With the changes queued on this phone (`options.ops`): a form of an older copy of the page than
    // they are (an undo of deal 1 while deals 2 and 3 wait here) is queued to be said and discarded,
    // never sent.
    const queued = options && options.ops;
    const last = queued ? lastDeal(info.deals || [], queued) : number;
    const fits = !queued || (which.kind === 'undo' ? number === last
      : which.kind === 'correct' ? number <= last : number === last || number === last + 1);
    if (!fits) return { ...op, kind: which.kind === 'undo' ? 'undo' : which.kind === 'correct' ? 'correct' : 'record',
      base: facts(seen), state: 'refused', code: 'stale', last };
    if (which.kind === 'undo') return { ...op, kind: 'undo', base: facts(seen) };
    if (which.kind === 'correct') {
      // One deal corrected as the correction page posts it. A swap changes two deals in one
      // correction, which only the server can judge as a whole: it is not queued.
      if (form.get('swap_with') || !seen) return null;
      const change = { contract: form.get('contract') || null, bids: counts('bids'), tricks: counts('tricks'), ...more() };
      // Tricks all left empty: a deal still being played keeps none.
      if (change.tricks && change.tricks.every((n) => n === null)) change.tricks = null;
      return { ...op, kind: 'correct', ...change, base: facts(seen), ...(blanks(change) ? { state: 'refused', code: 'incomplete' } : {}) };
    }
    let fields;
    if (which.kind === 'tricks') {
      // The result of the deal the page showed declared: it belongs to that declaration (its
      // contract, its bids, its suit) and to no other deal of the same number.
      if (!seen || complete(seen)) return null;
      fields = { contract: seen.contract, bids: seen.bids || null, ...given(seen, DECLARATION), tricks: count('tricks'), ...more(), base: facts(seen) };
      if (!complete(fields)) return null;
    } else {
      fields = { contract: form.get('contract') || null, bids: counts('bids'), tricks: count('tricks'), ...more(), base: null };
      if (!fields.contract && !fields.bids && !fields.tricks && !moreFacts) return null;
    }
    const blank = blanks(fields);
    // A count left blank is said on the page, where the deal can be corrected or discarded.
    return { ...op, kind: 'record', ...fields, ...(blank ? { state: 'refused', code: 'incomplete' } : {}) };
  }

  // -- the queue: stored in IndexedDB, sent through the API ---------------------------------------
  // How long a request may take before the network counts as gone (it may still arrive: it is
  // sent again under the same key, so a deal that did arrive is never stored twice).
  const WAIT = 8000;
  const DB = 'scorekeeper', OPS = 'ops', GAMES = 'games';

  // A queue over `around`: { indexedDB(), fetch(url, init), locks() (optional), wait (WAIT) },
  // each asked when used (a page that wraps its fetch is heard). The page and the worker use the
  // browser's own (ScorekeeperQueue itself); a test opens one over a fake database and server.
  function open(around) {
    const wait = around.wait || WAIT;
    function timed(url, init) {
      const stop = new AbortController();
      const timer = setTimeout(() => stop.abort(), wait);
      return around.fetch(url, { ...init, signal: stop.signal }).finally(() => clearTimeout(timer));
    }
    let opening = null;
    const asPromise = (req) => new Promise((resolve, reject) => {
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    function db() {
      if (!opening) {
        opening = new Promise((resolve, reject) => {
          const req = around.indexedDB().open(DB, 1);
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
    // A change queued: it has its key from the moment it is made (one queued by an older script gets one).
    async function putOp(op) { return asPromise((await store(OPS, 'readwrite')).put(op.key ? op : { ...op, key: newKey() })); }
    async function deleteOp(id) { return asPromise((await store(OPS, 'readwrite')).delete(id)); }
    async function putGame(info) { return asPromise((await store(GAMES, 'readwrite')).put(info)); }
    async function readGame(game) { return asPromise((await store(GAMES, 'readonly')).get(game)); }
    async function allGames() { return asPromise((await store(GAMES, 'readonly')).getAll()); }
    // Fields of a queued change set in one transaction (what the person changed meanwhile stays).
    async function patch(id, fields) {
      const table = await store(OPS, 'readwrite');
      const now = await asPromise(table.get(id));
      return now ? asPromise(table.put({ ...now, ...fields })) : undefined;
    }
    // Everything this phone queued for a game: dropped when it no longer holds the game's key.
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
        const stored = { number: d.number, contract: d.contract };
        FIELDS.slice(1).forEach((k) => { if (k in d) stored[k] = BY_SEAT.includes(k) ? seats(d[k]) : d[k]; });
        return stored;
      };
      return {
        // The game's version: a gzipped answer's tag has ':gzip' added (its bytes are another copy's).
        etag: (r.headers.get('ETag') || '').replace(/:gzip"$/, '"') || null,
        deals: body.deals.map(deal),
        remaining: info.players.map((name) => body.remaining_contracts[name] || []),
      };
    }

    const UNAVAILABLE = [502, 503, 504];
    async function send(info, req, key) {
      // The page's key cookie authorises it: the key itself never reaches a script.
      const url = req.method === 'POST' ? info.sync : `${info.sync}/${req.number}`;
      const headers = { 'Accept-Language': info.lang || 'en', 'Idempotency-Key': key };
      if (req.etag) headers['If-Match'] = req.etag;
      const named = {};
      if (req.body) {
        Object.entries(req.body).forEach(([k, v]) => {
          named[k] = BY_SEAT.includes(k) ? Object.fromEntries(info.players.map((name, seat) => [name, v[seat]])) : v;
        });
        headers['Content-Type'] = 'application/json';
      }
      const r = await timed(url, { method: req.method, headers, body: req.body ? JSON.stringify(named) : undefined,
        cache: 'no-store', credentials: 'same-origin' });
      // The server or its database is down for now (a proxy's 502 or 504, the app's 503): not applied,
      // so thrown as the network down is, and sent again later as it is, under the same key.
      if (UNAVAILABLE.includes(r.status)) throw new Error(`unavailable ${r.status}`);
      let error = {};
      if (!r.ok) { try { error = (await r.json()).error || {}; } catch (err) { error = {}; } }
      return { ok: r.ok, status: r.status, code: error.code || '', message: error.message || String(r.status),
        replayed: (r.headers.get('Idempotent-Replayed') || '').toLowerCase() === 'true' };
    }

    // A change the server took is done, unless the person changed it while it was on its way
    // (corrected it, or entered the tricks of the deal it declared): what is left of it is then
    // a correction of the deal as the server now has it (`after`), a new change with a key of its
    // own, sent next. Read and settled in one transaction, so an edit cannot slip in between.
    const asked = (op) => JSON.stringify([op.kind, FIELDS.map((k) => (op[k] == null ? null : op[k]))]);
    async function sent(op, after) {
      const table = await store(OPS, 'readwrite');
      const now = await asPromise(table.get(op.id));
      if (!now) return undefined;
      if (now.kind === 'undo' || asked(now) === asked(op)) return asPromise(table.delete(op.id));
      const { state, theirs, message, code, server, sending, key, ...rest } = now;
      return asPromise(table.put({ ...rest, kind: 'correct', base: after, key: newKey(), sending: null }));
    }

    // One sender at a time for a game, across this phone's tabs and its service worker: a Web Lock
    // where the browser has them; elsewhere each page sends on its own, which the keys make harmless.
    function exclusive(game, task) {
      const locks = around.locks && around.locks();
      if (locks && typeof locks.request === 'function') return locks.request(`scorekeeper-queue-${game}`, task);
      return task();
    }

    const running = {};
    // Sends the game's queued changes in order until none is left, one waits for the person
    // (a conflict, a refusal, a change undone elsewhere), or the network fails (thrown: try again later).
    function flush(game, onState) {
      if (!running[game]) {
        running[game] = exclusive(game, async () => {
          const info = await readGame(game);
          if (!info || !info.sync) return 'none';
          let races = 0;
          for (;;) {
            let op = (await ops(game))[0];
            if (!op) return 'empty';
            if (op.state) return 'blocked';
            if (!op.key) { op = { ...op, key: newKey() }; await patch(op.id, { key: op.key }); }
            const server = await readState(info);
            if (onState) onState(server);
            let req = op.sending;
            if (!req) {
              const verdict = judge(op, server);
              if (verdict.done) { await deleteOp(op.id); continue; }
              if (verdict.conflict) {
                await patch(op.id, { state: 'conflict', theirs: verdict.theirs });
                return 'blocked';
              }
              // Stored before it goes: if its answer is lost, this very request is sent again.
              req = request(verdict, server.etag);
              await patch(op.id, { sending: req });
            }
            const answer = await send(info, req, op.key);
            const now = answer.ok && !answer.replayed ? null : await readState(info);
            if (now && onState) onState(now);
            const outcome = now ? settle(req, answer, now, op.fromPage) : { done: true };
            if (outcome.done) { races = 0; await sent(op, req.after); continue; }
            if (outcome.gone) {
              await patch(op.id, { sending: null, key: newKey(), fromPage: false, state: 'gone', undone: outcome.undone, theirs: outcome.theirs });
              return 'blocked';
            }
            // Not applied: the change is judged again, under a key of its own.
            await patch(op.id, { sending: null, key: newKey(), fromPage: false });
            if (outcome.again) { races += 1; if (races < 4) continue; }
            await patch(op.id, { state: 'refused', message: answer.message, code: answer.code });
            return 'blocked';
          }
        }).finally(() => { delete running[game]; });
      }
      return running[game];
    }

    // Every game's queued changes; fails if the network did, so Background Sync tries again later.
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
      const which = formGame(path);
      const info = which && await readGame(which.game);
      const op = info && fromForm(path, form, info, { ops: await ops(which.game) });
      if (!op || !info.sync) return null;
      await putOp(op);
      return `/games/${op.game}`;
    }

    return { ops, putOp, deleteOp, patch, putGame, readGame, forget, flush, flushAll, keepForm };
  }

  const logic = { KEY, FIELDS, RESULTS, BY_SEAT, DECLARATION, FACT_BY_ID, WAIT, declare, newKey, same, given, facts, complete, matches, declared, judge, request,
    holds, settle, formGame, fromForm, lastDeal, open };
  // The browser's queue (the page's, the worker's): its IndexedDB, its fetch, its Web Locks.
  return { ...logic, ...open({ indexedDB: () => root.indexedDB, fetch: (url, init) => root.fetch(url, init),
    locks: () => root.navigator && root.navigator.locks }) };
}));
