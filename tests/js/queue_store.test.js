/* The queue kept on the phone and its sender (static/js/queue.js, `open`), over fake-indexeddb (a
   whole IndexedDB in memory, package.json's devDependencies: `npm ci`) and a small server that
   answers as the API does (API.md: Idempotency-Key, If-Match, counts by name). Run by
   `node --test tests/js`; without fake-indexeddb these are skipped with a notice, and fail under
   CI (CI=true), as tests/test_js.py does without Node. */
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const Q = require(path.join(__dirname, '..', '..', 'static', 'js', 'queue.js'));

let IDBFactory = null;
try {
  ({ IDBFactory } = require('fake-indexeddb'));
} catch (err) {
  if (process.env.CI) throw new Error('CI must run the queue\'s IndexedDB tests: `npm ci` installs fake-indexeddb');
}
const skip = IDBFactory ? false : 'fake-indexeddb is not installed (`npm ci`); CI installs it and runs these';

const PLAYERS = ['Ann', 'Bob', 'Cid'];
const byName = (counts) => (counts ? Object.fromEntries(PLAYERS.map((name, seat) => [name, counts[seat]])) : null);

// The API of one game, as far as the queue uses it: GET the game; POST a deal; PUT and DELETE one;
// each write under an Idempotency-Key (a key sent again gets its first answer, replayed) and If-Match.
function server(deals) {
  const game = { deals: deals.map((deal) => ({ ...deal })), version: 1, keys: new Map(), asked: [] };
  const json = (status, body, headers) => new Response(body === null ? null : JSON.stringify(body),
    { status, headers: { 'Content-Type': 'application/json', ...headers } });
  const refuse = (status, code) => json(status, { error: { code, message: `refused: ${code}` } });
  const etag = () => `"v${game.version}"`;
  game.fetch = async (url, init) => {
    const method = (init && init.method) || 'GET', headers = (init && init.headers) || {};
    game.asked.push([method, url, headers['Idempotency-Key'] || null]);
    if (game.down) throw new TypeError('Failed to fetch');
    if (game.unavailable && method !== 'GET') { game.unavailable -= 1; return refuse(503, 'unavailable'); }
    if (method === 'GET') {
      return json(200, { deals: game.deals, remaining_contracts: { Ann: ['clubs'], Bob: [], Cid: [] } }, { ETag: etag() });
    }
    const key = headers['Idempotency-Key'];
    if (game.keys.has(key)) {
      const [status, body] = game.keys.get(key);
      return json(status, body, { 'Idempotent-Replayed': 'true' });
    }
    if (headers['If-Match'] && headers['If-Match'] !== etag()) return refuse(412, 'version_mismatch');
    const body = init.body ? JSON.parse(init.body) : null;
    const number = method === 'POST' ? body.number : +url.split('/').pop();
    if (method === 'POST') {
      if (number !== game.deals.length + 1) return refuse(409, 'wrong_deal');
      game.deals.push({ number, contract: body.contract, bids: body.bids || null, tricks: body.tricks || null });
    } else if (method === 'PUT') {
      Object.assign(game.deals[number - 1], body);
    } else {
      game.deals.length = number - 1;
    }
    game.version += 1;
    const answer = [method === 'POST' ? 201 : 200, method === 'DELETE' ? {} : game.deals[number - 1]];
    game.keys.set(key, answer);
    // A lost answer: stored on the server, never heard by the phone.
    if (game.loseNext) { game.loseNext = false; throw new TypeError('Failed to fetch'); }
    return json(answer[0], answer[1]);
  };
  return game;
}

const INFO = { game: 'g1', api: '/api/v1/games/g1', sync: '/games/g1/api/deals', players: PLAYERS, lang: 'en', version: 1, deals: [] };
const hearts = { number: 1, contract: 'hearts', bids: null, tricks: byName([4, 5, 4]) };

function queue(game, more) {
  return Q.open({ indexedDB: () => game.idb, fetch: (url, init) => game.fetch(url, init), ...more });
}
async function setUp(deals) {
  const game = server(deals);
  game.idb = new IDBFactory();
  const q = queue(game);
  await q.putGame(INFO);
  return { game, q };
}
const record = (number, contract, tricks) => ({ game: 'g1', at: '2026-01-01T00:00:00Z', version: 1, kind: 'record', number,
  contract, bids: null, tricks, base: null, sending: null });

test('kept changes are read back in the order they were kept, patched in place, forgotten with their game', { skip }, async () => {
  const { q } = await setUp([]);
  const first = await q.putOp(record(1, 'hearts', [4, 5, 4]));
  const second = await q.putOp({ ...record(2, 'clubs', [3, 6, 4]), key: 'mine' });
  const kept = await q.ops('g1');
  assert.deepEqual(kept.map((op) => op.id), [first, second]);
  assert.match(kept[0].key, Q.KEY, 'a change kept without a key gets one');
  assert.equal(kept[1].key, 'mine');
  await q.patch(second, { state: 'refused', code: 'incomplete' });
  assert.deepEqual((await q.ops('g1'))[1], { ...kept[1], state: 'refused', code: 'incomplete' });
  assert.deepEqual(await q.ops('other'), []);
  await q.forget('g1');
  assert.deepEqual(await q.ops('g1'), []);
  assert.equal(await q.readGame('g1'), undefined);
});

test('a flush sends the kept deals in order, each under its own key and the tag it read, counts by name', { skip }, async () => {
  const { game, q } = await setUp([hearts]);
  await q.putOp(record(2, 'clubs', [3, 6, 4]));
  await q.putOp(record(3, 'spades', [5, 4, 4]));
  const states = [];
  assert.equal(await q.flush('g1', (state) => states.push(state.etag)), 'empty');
  assert.deepEqual(game.deals.map((deal) => [deal.contract, deal.tricks]),
    [['hearts', byName([4, 5, 4])], ['clubs', byName([3, 6, 4])], ['spades', byName([5, 4, 4])]]);
  const posts = game.asked.filter(([method]) => method === 'POST');
  assert.equal(posts.length, 2);
  assert.notEqual(posts[0][2], posts[1][2]);
  assert.deepEqual(states, ['"v1"', '"v2"']);
  assert.deepEqual(await q.ops('g1'), []);
});

test('an answer lost on its way is asked again under the same key, and the deal is stored once', { skip }, async () => {
  const { game, q } = await setUp([hearts]);
  await q.putOp(record(2, 'clubs', [3, 6, 4]));
  game.loseNext = true;
  await assert.rejects(q.flush('g1'));
  const [waiting] = await q.ops('g1');
  assert.deepEqual(waiting.sending, { method: 'POST', number: 2, body: { number: 2, contract: 'clubs', tricks: [3, 6, 4] },
    etag: '"v1"', after: { contract: 'clubs', bids: null, tricks: [3, 6, 4] } });
  assert.equal(await q.flush('g1'), 'empty');
  assert.equal(game.deals.length, 2);
  const posts = game.asked.filter(([method]) => method === 'POST');
  assert.deepEqual(posts.map(([, , key]) => key), [waiting.key, waiting.key]);
});

test('a deal another phone declared otherwise waits for the person, with theirs; nothing is sent', { skip }, async () => {
  const { game, q } = await setUp([hearts, { number: 2, contract: 'spades', bids: null, tricks: null }]);
  await q.putOp({ ...record(2, 'clubs', null), base: { contract: 'clubs', bids: null, tricks: null } });
  assert.equal(await q.flush('g1'), 'blocked');
  const [op] = await q.ops('g1');
  assert.equal(op.state, 'conflict');
  assert.deepEqual(op.theirs, { contract: 'spades', bids: null, tricks: null });
  assert.deepEqual(game.asked.map(([method]) => method), ['GET']);
  assert.equal(await q.flush('g1'), 'blocked', 'still waiting: never sent behind the person');
});

test('a refusal is kept with the server\'s words; the network down is thrown, the change kept as it was', { skip }, async () => {
  const { game, q } = await setUp([hearts]);
  await q.putOp(record(3, 'clubs', [3, 6, 4]));
  assert.equal(await q.flush('g1'), 'blocked');
  const [refused] = await q.ops('g1');
  assert.equal(refused.state, 'conflict', 'deal 3 before deal 2: judged here, never sent');
  await q.deleteOp(refused.id);
  await q.putOp(record(2, 'clubs', [3, 6, 4]));
  game.down = true;
  await assert.rejects(q.flush('g1'), /Failed to fetch/);
  const [kept] = await q.ops('g1');
  assert.equal(kept.state, undefined);
  assert.equal(kept.sending, null);
});

test('a write answered 503 (the database down) is sent again later under the same key, never refused', { skip }, async () => {
  const { game, q } = await setUp([hearts]);
  await q.putOp(record(2, 'clubs', [3, 6, 4]));
  game.unavailable = 1;
  await assert.rejects(q.flush('g1'), /unavailable 503/);
  const [waiting] = await q.ops('g1');
  assert.equal(waiting.state, undefined, 'not refused: nothing for the person to do');
  assert.equal(waiting.sending.number, 2);
  assert.equal(await q.flush('g1'), 'empty');
  assert.equal(game.deals.length, 2);
  const posts = game.asked.filter(([method]) => method === 'POST');
  assert.deepEqual(posts.map(([, , key]) => key), [waiting.key, waiting.key]);
});

test('a request with no answer gives up after the wait, so the change is tried again later', { skip }, async () => {
  const game = server([hearts]);
  game.idb = new IDBFactory();
  const q = Q.open({ indexedDB: () => game.idb, wait: 30,
    fetch: (url, init) => new Promise((resolve, reject) => init.signal.addEventListener('abort', () => reject(new Error('aborted')))) });
  await q.putGame(INFO);
  await q.putOp(record(2, 'clubs', [3, 6, 4]));
  await assert.rejects(q.flush('g1'), /aborted/);
  assert.equal((await q.ops('g1')).length, 1);
});

test('a deal form posted without the network is kept for its game, and sent with the rest', { skip }, async () => {
  const { game, q } = await setUp([hearts]);
  // The game as the page showed it: deal 1 played.
  await q.putGame({ ...INFO, deals: [{ number: 1, contract: 'hearts', bids: null, tricks: [4, 5, 4] }] });
  const form = new Map(Object.entries({ contract: 'clubs', number: '2', 'tricks-0': '3', 'tricks-1': '6', 'tricks-2': '4' }));
  assert.equal(await q.keepForm('/games/g1/deals', form), '/games/g1');
  assert.equal(await q.keepForm('/games/other/deals', form), null, 'a game this phone does not keep');
  const [op] = await q.ops('g1');
  assert.deepEqual([op.kind, op.number, op.contract, op.tricks, op.state], ['record', 2, 'clubs', [3, 6, 4], undefined]);
  assert.equal((await q.ops('other')).length, 0);
  await q.flushAll();
  assert.deepEqual(game.deals[1].tricks, byName([3, 6, 4]));
});

test('one sender at a time: a flush asked while one runs is that one, under the game\'s Web Lock', { skip }, async () => {
  const game = server([hearts]);
  game.idb = new IDBFactory();
  const names = [];
  const q = queue(game, { locks: () => ({ request: (name, task) => { names.push(name); return task(); } }) });
  await q.putGame(INFO);
  await q.putOp(record(2, 'clubs', [3, 6, 4]));
  const first = q.flush('g1'), second = q.flush('g1');
  assert.equal(first, second);
  assert.equal(await first, 'empty');
  assert.deepEqual(names, ['scorekeeper-queue-g1']);
  assert.equal(game.asked.filter(([method]) => method === 'POST').length, 1);
});
