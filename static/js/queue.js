/* Scorekeeper: the logic of the changes a phone keeps while it cannot reach the server. Pure: no
   page, no IndexedDB, no network; loaded by the game page, by the service worker (importScripts)
   and by Node (tests/js). offline.js keeps the changes and sends them by this logic.

   A kept change (an "op") says what the scorer asked for and what the page showed when it was
   made: { kind: 'record' | 'correct' | 'undo', number, contract, bids, tricks, version,
   base: the deal as the page showed it (null: no such deal), key: its Idempotency-Key,
   sending: the request last sent with that key whose answer never came (sent again as it was) }.
   Bids and tricks are by seat. A Kierki deal has more facts (API.md K4; FIELDS below): its
   counts by seat too (hearts, queens, kings_jacks), its takers and places by name, its suit. */
(function (root, factory) {
  'use strict';
  const logic = factory();
  if (typeof module === 'object' && module.exports) module.exports = logic;
  else root.ScorekeeperLogic = logic;
}(typeof self !== 'undefined' ? self : this, () => {
  'use strict';

  // An Idempotency-Key (API.md): 1-64 of [A-Za-z0-9_-], made once per change and kept with it,
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

  // What a deal's result may be (the tricks; Kierki's counts, takers and places), and what a
  // change may give: these, the contract, the bids and a trump deal's suit. Counts are by seat.
  const RESULTS = ['tricks', 'hearts', 'queens', 'kings_jacks', 'king_of_hearts', 'seventh_trick', 'last_trick', 'places'];
  const FIELDS = ['contract', 'bids', 'trumps', ...RESULTS];
  const BY_SEAT = ['bids', 'tricks', 'hearts', 'queens', 'kings_jacks'];
  const same = (a, b) => JSON.stringify(a == null ? null : a) === JSON.stringify(b == null ? null : b);
  // The fields of `from` among `names` that are given (not null).
  const given = (from, names) => Object.fromEntries(names.filter((k) => from && from[k] != null).map((k) => [k, from[k]]));
  // A deal's facts: contract, bids and tricks (null when not given), and whichever Kierki facts it has.
  const MORE = FIELDS.filter((k) => !['contract', 'bids', 'tricks'].includes(k));
  const facts = (deal) => (deal ? { contract: deal.contract || null, bids: deal.bids || null, tricks: deal.tricks || null,
    ...given(deal, MORE) } : null);
  // Whether a deal's result is in (a deal without one is pending: the cards are being played).
  const complete = (deal) => !!deal && RESULTS.some((k) => deal[k] != null);
  const matches = (deal, want) => !!deal && (want.contract == null || deal.contract === want.contract) &&
    FIELDS.slice(1).every((k) => same(deal[k], want[k]));
  // The declaration of a deal (its contract, bids, trump suit): what another phone's result must not land on.
  const declared = (deal, seen) => !!deal && !!seen && deal.contract === seen.contract && same(deal.bids, seen.bids) &&
    same(deal.trumps, seen.trumps);

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
        const declaration = given(op, ['contract', 'bids', 'trumps']);
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

  // The request a verdict sends, as kept with the change until its answer comes: sent again
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
  // `fromPage`: the change was a page form's, kept under the key the server put in the form; the
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
  // changes kept here (`ops`, in order) over them.
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
    // A Kierki form (forms.DealFacts): a count left wholly blank is not given (a trump deal saved
    // with its suit alone); a player is posted by seat, kept by name.
    const kierki = ['trumps', 'hearts-0', 'queens-0', 'kings_jacks-0', 'king_of_hearts', 'seventh_trick', 'last_trick', 'places-0']
      .some((k) => form.has(k));
    const count = (kind) => { const c = counts(kind); return kierki && c && c.every((n) => n === null) ? null : c; };
    const player = (value) => { const seat = whole(value); return seat !== null && seat < info.players.length ? info.players[seat] : null; };
    const more = () => {
      if (!kierki) return {};
      const out = { trumps: form.get('trumps') || null };
      ['hearts', 'queens', 'kings_jacks'].forEach((k) => { out[k] = count(k); });
      ['king_of_hearts', 'seventh_trick', 'last_trick'].forEach((k) => { out[k] = player(form.get(k)); });
      if (form.has('places-0') || form.has('places-1')) out.places = [player(form.get('places-0')), player(form.get('places-1'))];
      return given(out, FIELDS);
    };
    const blanks = (fields) => BY_SEAT.some((k) => fields[k] && fields[k].includes(null));
    const number = which.number || whole(form.get('number'));
    if (!number) return null;
    const seen = (info.deals && info.deals[number - 1]) || null;
    // The key the server put into the form: if the post did reach the server, the kept change is
    // that post, never a second one.
    const formKey = form.get('idempotency_key');
    const fromPage = typeof formKey === 'string' && KEY.test(formKey);
    const op = { game: which.game, at: (options && options.at) || new Date().toISOString(),
      version: whole(form.get('version')) || info.version || null, number,
      key: fromPage ? formKey : newKey(options && options.crypto), fromPage, sending: null };
    // With the changes kept on this phone (`options.ops`): a form of an older copy of the page than
    // they are (an undo of deal 1 while deals 2 and 3 wait here) is kept to be said and discarded,
    // never sent.
    const kept = options && options.ops;
    const last = kept ? lastDeal(info.deals || [], kept) : number;
    const fits = !kept || (which.kind === 'undo' ? number === last
      : which.kind === 'correct' ? number <= last : number === last || number === last + 1);
    if (!fits) return { ...op, kind: which.kind === 'undo' ? 'undo' : which.kind === 'correct' ? 'correct' : 'record',
      base: facts(seen), state: 'refused', code: 'stale', last };
    if (which.kind === 'undo') return { ...op, kind: 'undo', base: facts(seen) };
    if (which.kind === 'correct') {
      // One deal corrected as the correction page posts it. A swap changes two deals in one
      // correction, which only the server can judge as a whole: it is not kept.
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
      fields = { contract: seen.contract, bids: seen.bids || null, ...given(seen, ['trumps']), tricks: count('tricks'), ...more(), base: facts(seen) };
      if (!complete(fields)) return null;
    } else {
      fields = { contract: form.get('contract') || null, bids: counts('bids'), tricks: count('tricks'), ...more(), base: null };
      if (!fields.contract && !fields.bids && !fields.tricks && !kierki) return null;
    }
    const blank = blanks(fields);
    // A count left blank is said on the page, where the deal can be corrected or discarded.
    return { ...op, kind: 'record', ...fields, ...(blank ? { state: 'refused', code: 'incomplete' } : {}) };
  }

  return { KEY, FIELDS, RESULTS, BY_SEAT, newKey, same, given, facts, complete, matches, declared, judge, request, holds, settle, formGame, fromForm, lastDeal };
}));
