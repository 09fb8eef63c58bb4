/* The queue's logic (static/js/queue.js), run by Node's own test runner: `node --test tests/js`
   (tests/test_js.py runs it with the rest of the suite). */
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const Q = require(path.join(__dirname, '..', '..', 'static', 'js', 'queue.js'));

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
