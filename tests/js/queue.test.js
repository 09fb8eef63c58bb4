/* The queue's logic (static/js/queue.js), run by Node's own test runner: `node --test tests/js`
   (tests/test_js.py runs it with the rest of the suite). */
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const Q = require(path.join(__dirname, '..', '..', 'static', 'js', 'queue.js'));
// Kierki's facts as the server declares them to the queue (the offline plan's `facts`, the worker's FACTS).
Q.declare([{ id: 'trumps', kind: 'suit', declared: true, places: 0 }, { id: 'tricks', kind: 'count', declared: false, places: 0 },
  ...['hearts', 'queens', 'kings_jacks'].map((id) => ({ id, kind: 'count', declared: false, places: 0 })),
  ...['king_of_hearts', 'seventh_trick', 'last_trick'].map((id) => ({ id, kind: 'player', declared: false, places: 0 })),
  { id: 'places', kind: 'order', declared: false, places: 2 }]);

const PLAYERS = ['Ann', 'Bob', 'Cid'];
const deal = (number, contract, tricks, bids) => ({ number, contract, bids: bids || null, tricks: tricks || null });
const FOUR = [deal(1, 'hearts', [4, 5, 4]), deal(2, 'clubs', [3, 6, 4]), deal(3, 'mizerka', [4, 9, 0]), deal(4, 'spades', [5, 4, 4])];
const server = (deals) => ({ etag: `"v${deals.length}"`, deals });
const form = (fields) => new Map(Object.entries(fields));
const info = (deals) => ({ game: 'g1', players: PLAYERS, version: 7, deals });

test('a key is 1-64 characters of A-Z a-z 0-9 - _, a new one each time, with or without randomUUID', () => {
  const keys = [Q.newKey(), Q.newKey(), Q.newKey({ getRandomValues: (a) => require('node:crypto').getRandomValues(a) }), Q.newKey({})];
  keys.forEach((key) => assert.match(key, Q.KEY));
  assert.equal(new Set(keys).size, keys.length);
});

test('a new deal is posted with its number; one stored as sent is done', () => {
  const op = { kind: 'record', number: 5, contract: 'diamonds', bids: null, tricks: [0, 9, 4], base: null };
  const verdict = Q.judge(op, server(FOUR));
  assert.deepEqual(verdict.send, ['POST', 5, { number: 5, contract: 'diamonds', tricks: [0, 9, 4] }]);
  assert.deepEqual(Q.judge(op, server([...FOUR, deal(5, 'diamonds', [0, 9, 4])])), { done: true });
  assert.equal(Q.judge(op, server([...FOUR, deal(5, 'spades', [3, 1, 9])])).conflict, true);
});

test("tricks made for a declared deal never land on another declaration of that deal's number", () => {
  const clubs = deal(5, 'clubs');
  const op = { kind: 'record', number: 5, contract: 'clubs', bids: null, tricks: [5, 4, 4], base: Q.facts(clubs) };
  assert.deepEqual(Q.judge(op, server([...FOUR, clubs])).send, ['PUT', 5, { tricks: [5, 4, 4] }]);
  // Undone on another phone and declared Hearts: a conflict, both shown.
  const hearts = Q.judge(op, server([...FOUR, deal(5, 'hearts')]));
  assert.deepEqual(hearts, { conflict: true, theirs: { contract: 'hearts', bids: null, tricks: null } });
  // Undone and not declared again: a conflict too, never the whole deal posted again.
  assert.deepEqual(Q.judge(op, server(FOUR)), { conflict: true, theirs: null });
  // Misère: the same deal with other bids.
  const bids = deal(3, 'bidding', null, [3, 3, 3, 3]);
  const mine = { kind: 'record', number: 3, contract: 'bidding', bids: [3, 3, 3, 3], tricks: [4, 3, 3, 3], base: Q.facts(bids) };
  const two = [deal(1, 'bidding', [4, 3, 3, 3], [1, 1, 1, 1]), deal(2, 'bidding', [4, 3, 3, 3], [1, 1, 1, 1])];
  assert.equal(Q.judge(mine, server([...two, bids])).send[0], 'PUT');
  assert.equal(Q.judge(mine, server([...two, deal(3, 'bidding', null, [2, 3, 3, 3])])).conflict, true);
});

test('fromForm keeps the contract and bids the page showed with the tricks posted for them', () => {
  const shown = [...FOUR, deal(5, 'clubs')];
  const op = Q.fromForm('/games/g1/deals/5/tricks', form({ 'tricks-0': '5', 'tricks-1': '4', 'tricks-2': '4', number: '5' }), info(shown));
  assert.equal(op.kind, 'record');
  assert.equal(op.contract, 'clubs');
  assert.deepEqual(op.tricks, [5, 4, 4]);
  assert.deepEqual(op.base, { contract: 'clubs', bids: null, tricks: null });
  assert.match(op.key, Q.KEY);
  assert.equal(op.sending, null);
  assert.equal(Q.judge(op, server([...FOUR, deal(5, 'hearts')])).conflict, true);
  // A page that did not show the deal declared: nothing this phone can keep as the scorer meant it.
  assert.equal(Q.fromForm('/games/g1/deals/5/tricks', form({ 'tricks-0': '5', 'tricks-1': '4', 'tricks-2': '4' }), info(FOUR)), null);
  // Another game's form, or not a deal's: not kept.
  assert.equal(Q.fromForm('/games/other/deals', form({ contract: 'clubs', number: '5' }), info(FOUR)), null);
  assert.equal(Q.fromForm('/games/g1/rematch', form({}), info(FOUR)), null);
});

test('fromForm: a declaration, an undo and a correction as the page posts them', () => {
  const declared = Q.fromForm('/games/g1/deals', form({ contract: 'diamonds', number: '5' }), info(FOUR));
  assert.deepEqual([declared.kind, declared.number, declared.contract, declared.tricks, declared.base], ['record', 5, 'diamonds', null, null]);
  const undo = Q.fromForm('/games/g1/undo', form({ number: '4', version: '9' }), info(FOUR));
  assert.deepEqual([undo.kind, undo.number, undo.version, undo.base.contract], ['undo', 4, 9, 'spades']);
  const fix = Q.fromForm('/games/g1/deals/3/edit', form({ contract: 'mizerka', 'tricks-0': '5', 'tricks-1': '8', 'tricks-2': '0' }), info(FOUR));
  assert.deepEqual([fix.kind, fix.tricks, fix.base.tricks], ['correct', [5, 8, 0], [4, 9, 0]]);
  const blank = Q.fromForm('/games/g1/deals', form({ contract: '', number: '5', 'tricks-0': '5', 'tricks-1': '', 'tricks-2': '4' }), info(FOUR));
  assert.equal(blank.state, 'refused');
  assert.equal(Q.fromForm('/games/g1/deals/3/edit', form({ swap_with: '2' }), info(FOUR)), null);
});

test('a replayed answer whose deal the game no longer holds is said: undone, or changed, on another phone', () => {
  const op = { kind: 'record', number: 5, contract: 'diamonds', tricks: [0, 9, 4] };
  const sent = Q.request(Q.judge(op, server(FOUR)), '"v4"');
  assert.equal(sent.etag, '"v4"');
  const ok = { ok: true, status: 201, replayed: false };
  const replayed = { ok: true, status: 201, replayed: true };
  assert.deepEqual(Q.settle(sent, ok, server(FOUR)), { done: true }, 'a first answer is the change applied');
  assert.deepEqual(Q.settle(sent, replayed, server([...FOUR, deal(5, 'diamonds', [0, 9, 4])])), { done: true });
  assert.deepEqual(Q.settle(sent, replayed, server(FOUR)), { gone: true, undone: true, theirs: null });
  const changed = Q.settle(sent, replayed, server([...FOUR, deal(5, 'spades', [3, 1, 9])]));
  assert.deepEqual([changed.gone, changed.undone, changed.theirs.contract], [true, false, 'spades']);
});

test('a refusal that finds the deal stored exactly as sent is a success; a race is judged again; a rule refusal waits', () => {
  const op = { kind: 'record', number: 6, contract: 'clubs', tricks: [3, 6, 4] };
  const five = [...FOUR, deal(5, 'diamonds', [0, 9, 4])];
  const sent = Q.request(Q.judge(op, server(five)), '"v5"');
  const already = { ok: false, status: 409, code: 'wrong_deal_number', replayed: false };
  assert.deepEqual(Q.settle(sent, already, server([...five, deal(6, 'clubs', [3, 6, 4])])), { done: true });
  assert.deepEqual(Q.settle(sent, already, server([...five, deal(6, 'hearts', [3, 6, 4])])), { again: true });
  assert.deepEqual(Q.settle(sent, { ok: false, status: 409, code: 'stale' }, server(five)), { again: true });
  assert.deepEqual(Q.settle(sent, { ok: false, status: 422, code: 'idempotency_key_reused' }, server(five)), { again: true });
  assert.deepEqual(Q.settle(sent, { ok: false, status: 422, code: 'tricks_sum' }, server(five)), { refused: true });
});

test('an undo is sent only on the deal as this phone saw it', () => {
  const op = { kind: 'undo', number: 4, base: Q.facts(FOUR[3]) };
  assert.deepEqual(Q.judge(op, server(FOUR)).send, ['DELETE', 4]);
  assert.deepEqual(Q.judge(op, server(FOUR.slice(0, 3))), { done: true });
  assert.equal(Q.judge(op, server([...FOUR.slice(0, 3), deal(4, 'hearts', [5, 4, 4])])).conflict, true);
  const sent = Q.request(Q.judge(op, server(FOUR)), '"v4"');
  assert.deepEqual(Q.settle(sent, { ok: true, status: 204, replayed: true }, server(FOUR.slice(0, 3))), { done: true });
  assert.equal(Q.settle(sent, { ok: true, status: 204, replayed: true }, server(FOUR)).gone, true);
});

test('a correction is sent against the deal it was made on', () => {
  const op = { kind: 'correct', number: 3, contract: null, bids: null, tricks: [5, 8, 0], base: Q.facts(FOUR[2]) };
  assert.deepEqual(Q.judge(op, server(FOUR)).send, ['PUT', 3, { tricks: [5, 8, 0] }]);
  const fixed = FOUR.map((d) => (d.number === 3 ? deal(3, 'mizerka', [5, 8, 0]) : d));
  assert.deepEqual(Q.judge(op, server(fixed)), { done: true });
  const other = FOUR.map((d) => (d.number === 3 ? deal(3, 'mizerka', [6, 7, 0]) : d));
  assert.equal(Q.judge(op, server(other)).conflict, true);
});

// -- Kierki: more facts than tricks (API.md K4): counts by seat, a player by name, the suit ----------------
const KPLAYERS = ['Ala', 'Bartek', 'Celina', 'Darek'];
const kdeal = (number, contract, more) => ({ number, contract, bids: null, tricks: null, trumps: null, hearts: null, queens: null,
  kings_jacks: null, king_of_hearts: null, seventh_trick: null, last_trick: null, places: null, ...more });
const KIERKI = [kdeal(1, 'no-tricks', { tricks: [2, 5, 0, 6] }), kdeal(2, 'no-hearts', { hearts: [4, 0, 7, 2] }),
  kdeal(3, 'no-queens', { queens: [1, 2, 0, 1] }), kdeal(4, 'no-kings-jacks', { kings_jacks: [3, 1, 2, 2] })];
const kinfo = (deals) => ({ game: 'g1', players: KPLAYERS, version: 4, deals });

test('Kierki: a deal is posted with every fact it has, and is done only when the server holds them all', () => {
  const op = { kind: 'record', number: 5, contract: 'no-king-of-hearts', king_of_hearts: 'Celina', base: null };
  assert.deepEqual(Q.judge(op, server(KIERKI)).send, ['POST', 5, { number: 5, contract: 'no-king-of-hearts', king_of_hearts: 'Celina' }]);
  assert.deepEqual(Q.judge(op, server([...KIERKI, kdeal(5, 'no-king-of-hearts', { king_of_hearts: 'Celina' })])), { done: true });
  // Another phone gave the king of hearts to Bartek: both are shown, nothing is overwritten.
  const theirs = Q.judge(op, server([...KIERKI, kdeal(5, 'no-king-of-hearts', { king_of_hearts: 'Bartek' })]));
  assert.deepEqual(theirs, { conflict: true, theirs: { contract: 'no-king-of-hearts', bids: null, tricks: null, king_of_hearts: 'Bartek' } });
  const sent = Q.request(Q.judge(op, server(KIERKI)), '"v4"');
  assert.deepEqual(Q.settle(sent, { ok: true, status: 201, replayed: true }, server([...KIERKI, kdeal(5, 'no-king-of-hearts', { king_of_hearts: 'Bartek' })])).gone, true);
});

test("Kierki: a trump deal's tricks land on the suit the page showed, never on another suit named meanwhile", () => {
  const eight = [...KIERKI, ...[5, 6, 7].map((n) => kdeal(n, 'x'))];
  const suit = { kind: 'record', number: 8, contract: 'trumps', trumps: 'spades', base: null };
  assert.deepEqual(Q.judge(suit, server(eight)).send, ['POST', 8, { number: 8, contract: 'trumps', trumps: 'spades' }]);
  const spades = kdeal(8, 'trumps', { trumps: 'spades' });
  assert.deepEqual(Q.judge(suit, server([...eight, spades])), { done: true }, 'declared: its suit alone is the whole change');
  assert.equal(Q.complete(spades), false);
  const tricks = { kind: 'record', number: 8, contract: 'trumps', trumps: 'spades', tricks: [3, 2, 4, 4], base: Q.facts(spades) };
  assert.deepEqual(Q.judge(tricks, server([...eight, spades])).send, ['PUT', 8, { tricks: [3, 2, 4, 4] }]);
  // Undone on another phone and declared in hearts: a conflict, shown to the scorer.
  assert.equal(Q.judge(tricks, server([...eight, kdeal(8, 'trumps', { trumps: 'hearts' })])).conflict, true);
  // Stored with its tricks as sent: done.
  assert.deepEqual(Q.judge(tricks, server([...eight, { ...spades, tricks: [3, 2, 4, 4] }])), { done: true });
});

test('Kierki: a correction sends the fields it changes against the deal it was made on', () => {
  const op = { kind: 'correct', number: 2, hearts: [4, 1, 6, 2], base: Q.facts(KIERKI[1]) };
  assert.deepEqual(Q.judge(op, server(KIERKI)).send, ['PUT', 2, { hearts: [4, 1, 6, 2] }]);
  const fixed = KIERKI.map((d) => (d.number === 2 ? { ...d, hearts: [4, 1, 6, 2] } : d));
  assert.deepEqual(Q.judge(op, server(fixed)), { done: true });
  const other = KIERKI.map((d) => (d.number === 2 ? { ...d, hearts: [3, 1, 7, 2] } : d));
  assert.equal(Q.judge(op, server(other)).conflict, true);
});

test("fromForm: Kierki's forms as the page posts them (a player by seat, a count left blank, the suit alone)", () => {
  const hearts = Q.fromForm('/games/g1/deals', form({ number: '5', king_of_hearts: '2' }), kinfo(KIERKI));
  assert.deepEqual([hearts.kind, hearts.number, hearts.king_of_hearts, hearts.tricks, hearts.state], ['record', 5, 'Celina', null, undefined]);
  const robber = { number: '7', 'tricks-0': '3', 'tricks-1': '4', 'tricks-2': '2', 'tricks-3': '4', 'hearts-0': '2', 'hearts-1': '5',
    'hearts-2': '0', 'hearts-3': '6', 'queens-0': '0', 'queens-1': '1', 'queens-2': '1', 'queens-3': '2', 'kings_jacks-0': '2',
    'kings_jacks-1': '3', 'kings_jacks-2': '1', 'kings_jacks-3': '', king_of_hearts: '1', seventh_trick: '0', last_trick: '3' };
  const blank = Q.fromForm('/games/g1/deals', form(robber), kinfo(KIERKI));
  assert.deepEqual([blank.hearts, blank.kings_jacks, blank.last_trick, blank.state], [[2, 5, 0, 6], [2, 3, 1, null], 'Darek', 'refused']);
  const seven = [...KIERKI, ...[5, 6, 7].map((n) => kdeal(n, 'x'))];
  const suit = Q.fromForm('/games/g1/deals', form({ number: '8', trumps: 'spades', 'tricks-0': '', 'tricks-1': '', 'tricks-2': '', 'tricks-3': '' }), kinfo(seven));
  assert.deepEqual([suit.trumps, suit.tricks, suit.state], ['spades', null, undefined]);
  const spades = kdeal(8, 'trumps', { trumps: 'spades' });
  const tricks = Q.fromForm('/games/g1/deals/8/tricks', form({ 'tricks-0': '3', 'tricks-1': '2', 'tricks-2': '4', 'tricks-3': '4' }), kinfo([...seven, spades]));
  assert.deepEqual([tricks.contract, tricks.trumps, tricks.tricks, tricks.base.trumps], ['trumps', 'spades', [3, 2, 4, 4], 'spades']);
  const places = Q.fromForm('/games/g1/deals', form({ number: '12', 'places-0': '2', 'places-1': '0' }), kinfo(KIERKI));
  assert.deepEqual(places.places, ['Celina', 'Ala']);
});

test("a kept page form carries the server's key: taken by the form that did arrive, its change is not made again", () => {
  const op = Q.fromForm('/games/g1/deals', form({ number: '5', contract: 'diamonds', idempotency_key: 'form-key-5' }), info(FOUR));
  assert.deepEqual([op.key, op.fromPage], ['form-key-5', true]);
  const sent = Q.request(Q.judge(op, server(FOUR)), '"v4"');
  const reused = { ok: false, status: 422, code: 'idempotency_key_reused' };
  // The form declared deal 5, another phone undid it: said to the person, never declared again.
  assert.deepEqual(Q.settle(sent, reused, server(FOUR), op.fromPage), { gone: true, undone: true, theirs: null });
  assert.deepEqual(Q.settle(sent, reused, server([...FOUR, deal(5, 'diamonds')]), op.fromPage), { done: true });
  // A change of the page's script, whose key was never in a form: judged again, as before.
  assert.deepEqual(Q.settle(sent, reused, server(FOUR), false), { again: true });
  const plain = Q.fromForm('/games/g1/deals', form({ number: '5', contract: 'diamonds' }), info(FOUR));
  assert.equal(plain.fromPage, false);
  assert.match(plain.key, Q.KEY);
});

test('a form of an older copy of the page than the deals kept on the phone is kept refused, never sent', () => {
  const two = FOUR.slice(0, 1);
  const kept = [{ kind: 'record', number: 2 }, { kind: 'record', number: 3 }];
  assert.equal(Q.lastDeal(two, kept), 3);
  assert.equal(Q.lastDeal(two, [...kept, { kind: 'undo', number: 3 }]), 2);
  const stale = Q.fromForm('/games/g1/undo', form({ number: '1', version: '1' }), info(two), { ops: kept });
  assert.deepEqual([stale.kind, stale.number, stale.state, stale.code, stale.last], ['undo', 1, 'refused', 'stale', 3]);
  const undo = Q.fromForm('/games/g1/undo', form({ number: '3', version: '1' }), info(two), { ops: kept });
  assert.deepEqual([undo.kind, undo.number, undo.state], ['undo', 3, undefined]);
  const old = Q.fromForm('/games/g1/deals', form({ number: '2', contract: 'clubs', 'tricks-0': '3', 'tricks-1': '6', 'tricks-2': '4' }), info(two), { ops: kept });
  assert.deepEqual([old.kind, old.state, old.code], ['record', 'refused', 'stale']);
  const next = Q.fromForm('/games/g1/deals', form({ number: '4', contract: 'spades' }), info(two), { ops: kept });
  assert.equal(next.state, undefined);
});
