/* Scorekeeper: the game page's deals entered while the phone cannot reach the server: the
   offline mark, the deals queued on this phone (queue.js stores and sends them), entering the next
   ones and correcting or undoing them, each drawn as the page draws it online (offline_parts.js)
   until what is queued has reached the server. Loaded by game.js on the game page only, after
   queue.js and offline_parts.js. */
(function () {
  'use strict';
  const d = document, b = d.body, Q = self.ScorekeeperQueue;
  if (!b.classList.contains('game-page') || !window.indexedDB || !self.Scorekeeper || !self.ScorekeeperOfflineParts) return;
  const game = b.dataset.game;
  const seenKey = `sk-seen-${game}`;
  const note = d.getElementById('offline-status');
  let plan = null, list = [], editing = null, message = '', busySending = false;
  // The contract tapped on the offline card, where it decides the deal's facts ({ number, contract }).
  let chosen = null;
  // A deal was just queued: the next card is put in view as the page puts a step (entry.js, sk:step).
  let stepped = false;
  // The server could not be reached (a request failed, or no answer came), whatever
  // navigator.onLine says: the page is then as offline, until the server answers again.
  let unreachable = false;

  // The page's texts, in its language: app.js's t, over templates/_ui_strings.html (offline.* keys).
  const t = self.Scorekeeper.t;
  // The parts drawn from the page's templates, for the plan as this page last read it.
  const parts = self.ScorekeeperOfflineParts({ get plan() { return plan; } });
  const { slot, label, factsCard, drawn, dealPart, read, readFacts, showForbidden, check, drawLog, entryForm, editor, undoBox,
    blockedPanel } = parts;
  // The plan the server drew into the page; the facts its game's deals may carry, told to the queue.
  const readPlan = () => {
    const box = d.getElementById('offline-plan');
    let read = null;
    try { read = box ? JSON.parse(box.dataset.plan) : null; } catch (err) { return null; }
    if (read) Q.declare(read.facts);
    return read;
  };
  const seen = () => {
    try { localStorage.setItem(seenKey, new Date().toISOString()); } catch (err) { /* private mode */ }
  };
  const seenAt = () => {
    try { return localStorage.getItem(seenKey); } catch (err) { return null; }
  };
  const online = () => navigator.onLine !== false && !unreachable;

  // The deals as this phone knows them: the server's, then what is queued here over them.
  function model() {
    const deals = plan.deals.map((deal) => ({ ...deal, server: true }));
    const undone = [];
    list.forEach((op) => {
      if (op.code === 'stale') return; // an old copy's form: said, never part of the game
      const i = op.number - 1;
      if (op.kind === 'record') {
        // Over the deal the server has declared (pending), its declaration left as it is: the bids, the suit.
        const base = deals[i] && deals[i].server && !Q.complete(deals[i]) && !op.state ? deals[i] : {};
        deals[i] = { number: op.number, ...Q.given(base, Q.DECLARATION), ...Q.given(op, Q.FIELDS),
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

  function status() {
    if (!note) return;
    const queued = list.filter((op) => op.code !== 'stale').map((op) => `#${op.number}`);
    const parts = [];
    if (!online()) {
      const at = seenAt();
      parts.push(at ? t('offline.offline', { time: new Date(at).toLocaleTimeString(d.documentElement.lang || undefined, { hour: '2-digit', minute: '2-digit' }) })
        : t('offline.offline_never'));
    }
    if (queued.length) parts.push(t('offline.queued', { deals: Array.from(new Set(queued)).join(', ') }));
    if (queued.length && online()) parts.push(busySending ? t('offline.sending') : '');
    if (!queued.length && online() && message) parts.push(message);
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
    // names the server's last deal, which the deals queued on this phone may no longer be.
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
    const card = (editing !== null && editor(m, editing)) || entryForm(m, chosen);
    if (editing === null) remind(m.deals, card.querySelector('form.offline-form'));
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

  // As online, what the table should know before the card's deal: the plan's reminders (the server's words)
  // whose count is met, the chooser's deals before it, queued here or stored on the server, in which the reminder's
  // player made a side bet against the chooser (the fact of kind pairs); over the bets, or under the contracts.
  function remind(deals, form) {
    const number = form ? +form.dataset.number : 0, s = number && slot(number);
    const paired = plan.facts.find((fact) => fact.kind === 'pairs');
    if (!s || s.chooser === null || !paired) return;
    const who = (seat) => plan.players[seat], chooser = who(s.chooser);
    const made = (seat) => deals.filter((deal) => deal.number < number && slot(deal.number).chooser === s.chooser
      && (deal[paired.id] || []).some((bet) => bet.by === who(seat) && bet.against === chooser)).length;
    const lines = (plan.reminders || []).filter((said) => said.number === number && said.made === made(said.seat))
      .map((said) => Object.assign(drawn('offline-reminder', 'p[data-reminder]')[0], { textContent: said.text }));
    const rows = form.querySelector('fieldset.pairs .pair-row');
    if (rows) rows.before(...lines);
    else if (form.dataset.step === 'contract') form.append(...lines);
  }

  // The sticky scoreboard follows the entry: the deal it is on, its roles (as the server draws them,
  // from the schedule's templates), and totals said to be the server's until the queued deals are sent.
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

  // The contracts table (a game whose players choose contracts) follows the deals as this phone knows them: a contract queued here is
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
      // Where the contract decides the deal's facts, the card asks them with it: nothing queued yet.
      if (plan.by_contract) { chosen = { number, contract: submitter && submitter.value }; render(); return; }
      await keep({ kind: 'record', number, contract: submitter && submitter.value });
      return;
    }
    if (!check(form, number)) return;
    stepped = step !== 'correct';
    const bids = read(form, 'bids'), tricks = read(form, 'tricks');
    // What the form gives: the deal's facts (its card asks them all), or the bids and the tricks.
    const m = model(), deal = m.deals[number - 1];
    const contract = form.dataset.contract || (deal && deal.contract) || slot(number).contract;
    const facts = factsCard(number, contract);
    const entered = facts ? readFacts(form) : { bids, tricks };
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
    const result = facts ? entered : { tricks };
    if (step === 'tricks' && mine && !Q.complete(mine) && !mine.state) {
      // The result of a deal declared on this phone and not sent yet: one deal, one request.
      await Q.putOp({ ...mine, ...result });
      await reload();
      sync();
    } else if (step === 'tricks' && deal && !Q.complete(deal)) {
      // The result of a deal declared as the page shows it: for that declaration only.
      await keep({ kind: 'record', number, contract: deal.contract, bids: deal.bids, ...Q.given(deal, Q.DECLARATION), ...result,
        base: deal.server ? Q.facts(deal) : null });
    } else if (step === 'facts') {
      // A deal entered by its facts: as entered (a trump deal with its suit alone is declared, pending).
      chosen = null;
      await keep({ kind: 'record', number, contract, ...entered });
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
  // The page's live update reached the server: whatever this phone queued can go now.
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
    if (b.dataset.pencil === '0') forgetAll(); else remember();
    render();
  });
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.addEventListener('message', (e) => { if (e.data === 'scorekeeper-queue') reload(); });
  }

  plan = readPlan();
  drawnTag = plan ? plan.etag : null;
  // The server says this phone only watches (its key is gone): nothing is queued for the game.
  const forgetAll = () => { list = []; Q.forget(game).catch(() => {}); };
  // Shown by the service worker from its cache, with a deal just queued: the network has failed.
  if (location.hash === '#queued') {
    unreachable = true;
    history.replaceState(null, '', location.pathname + location.search);
  }
  if (online()) seen();
  else d.querySelectorAll('.flashes').forEach((box) => box.remove()); // the page saved offline's, old news
  // The first visit is not yet the service worker's to keep: the page keeps itself, once.
  if (online() && window.caches && window.isSecureContext && navigator.serviceWorker && !navigator.serviceWorker.controller) {
    caches.open('pages').then((cache) => cache.add(location.pathname)).catch(() => {});
  }
  if (b.dataset.pencil === '0') forgetAll();
  else remember();
  reload().then(sync).catch(() => {});
}());
