import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  createMemoryIdempotencyStore,
  IdempotencyStoreFullError,
  type IdempotencyRecord,
  type IdempotencyStore,
} from '../../src/server/index.js';
import {
  answerSuccess,
  delay,
  makeHandler,
  ORDER,
  post,
  readError,
  recordingFetch,
  type Responder,
  slowSuccess,
  TRANSFER_REQUEST,
  USSD_REQUEST,
} from './server-fixtures.js';

const KEY = { 'idempotency-key': 'attempt-5be1a3f0' };

/** A new random reference per call, as a careless resolver would give. */
const randomOrder = () => ({ ...ORDER, paymentReference: `r-${crypto.randomUUID()}` });

/** A store shared by several server instances, like Redis with `SET NX` for `reserve`. */
function sharedStore() {
  const records = new Map<string, IdempotencyRecord>();
  const locks = new Set<string>();
  const log: string[] = [];
  const store = (name: string, getDelayMs = 0): IdempotencyStore => ({
    async get(key) {
      const record = records.get(key);
      await delay(getDelayMs);
      log.push(`${name} get ${record?.state ?? 'none'}`);
      return record;
    },
    async set(key, record) {
      records.set(key, record);
    },
    async reserve(key) {
      if (locks.has(key)) return false;
      locks.add(key);
      return true;
    },
    async release(key) {
      locks.delete(key);
    },
  });
  return { store, records, locks, log };
}

describe('createSessionHandler: Idempotency-Key across instances sharing a store', () => {
  it('takes the claim before reading the record, so a slow read cannot let two instances pay', async () => {
    const shared = sharedStore();
    const upstream = recordingFetch(slowSuccess);
    const one = makeHandler({ idempotencyStore: shared.store('A'), order: randomOrder, fetch: upstream.fetch });
    // B's first read is slow: it used to read "no record", then find the claim free once A released it.
    const two = makeHandler({ idempotencyStore: shared.store('B', 100), order: randomOrder, fetch: upstream.fetch });
    const [a, b] = await Promise.all([one.handler(post(TRANSFER_REQUEST, KEY)), two.handler(post(TRANSFER_REQUEST, KEY))]);
    assert.equal(upstream.calls.length, 1, 'one payment');
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    assert.equal(await b.text(), await a.text());
    assert.equal(b.headers.get('idempotent-replayed'), 'true');
    assert.equal(shared.locks.size, 0, 'every claim released');
  });

  it('waits for a claim held elsewhere and replays the answer stored meanwhile, instead of 409', async () => {
    const shared = sharedStore();
    const { handler, calls } = makeHandler({ idempotencyStore: shared.store('B') });
    // Another instance holds the claim and stores its answer 60 ms later.
    shared.locks.add(KEY['idempotency-key']);
    const elsewhere = createMemoryIdempotencyStore();
    await makeHandler({ idempotencyStore: elsewhere }).handler(post(USSD_REQUEST, KEY));
    const stored = (await elsewhere.get(KEY['idempotency-key']))!;
    setTimeout(() => {
      shared.records.set(KEY['idempotency-key'], stored);
      shared.locks.delete(KEY['idempotency-key']);
    }, 60);
    const response = await handler(post(USSD_REQUEST, KEY));
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(response.headers.get('idempotent-replayed'), 'true');
    assert.equal(calls.length, 0);
  });

  it('makes one payment for two handlers sharing the in-memory store in one process', async () => {
    const idempotencyStore = createMemoryIdempotencyStore();
    const upstream = recordingFetch(slowSuccess);
    const one = makeHandler({ idempotencyStore, order: randomOrder, fetch: upstream.fetch });
    const two = makeHandler({ idempotencyStore, order: randomOrder, fetch: upstream.fetch });
    const [a, b] = await Promise.all([one.handler(post(USSD_REQUEST, KEY)), two.handler(post(USSD_REQUEST, KEY))]);
    assert.equal(upstream.calls.length, 1);
    assert.equal(await b.text(), await a.text());
  });
});

describe('createSessionHandler: a store failing after the payment was made', () => {
  it('still answers with the instructions when storing the answer fails, and reports it', async () => {
    const inner = createMemoryIdempotencyStore();
    const store: IdempotencyStore = {
      get: inner.get,
      set: (key, record) => {
        if (record.state === 'done') throw new Error('redis: connection lost');
        return inner.set(key, record);
      },
    };
    const { handler, calls, events } = makeHandler({ idempotencyStore: store });
    const response = await handler(post(USSD_REQUEST, KEY));
    assert.equal(response.status, 200);
    assert.equal(calls.length, 1);
    assert.ok(events.some((e) => e.type === 'internal-error' && e.where === 'store' && /connection lost/.test(e.detail)));
  });

  it('still answers with the instructions when releasing the claim throws or rejects', async () => {
    for (const release of [
      () => {
        throw new Error('redis: DEL timed out');
      },
      () => Promise.reject(new Error('redis: DEL timed out')),
    ]) {
      const inner = createMemoryIdempotencyStore();
      const store: IdempotencyStore = { get: inner.get, set: inner.set, reserve: () => true, release };
      const { handler, events } = makeHandler({ idempotencyStore: store });
      const response = await handler(post(USSD_REQUEST, KEY));
      assert.equal(response.status, 200);
      await delay(0);
      assert.ok(events.some((e) => e.type === 'internal-error' && e.where === 'store' && /DEL timed out/.test(e.detail)));
    }
  });
});

describe('createSessionHandler: unfinished records are never lost to make room', () => {
  const pendingThenSuccess = () => {
    let attempt = 0;
    return ((call, signal) =>
      ++attempt === 1 ? Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } })) : answerSuccess(call, signal)) as Responder;
  };

  it('keeps a pending record through other traffic in a full store: the retry sends the same reference', async () => {
    const idempotencyStore = createMemoryIdempotencyStore({ maxEntries: 2 });
    const { handler, calls } = makeHandler({ idempotencyStore, order: randomOrder }, pendingThenSuccess());
    await readError(await handler(post(TRANSFER_REQUEST, KEY)), 502, 'gateway_unreachable');
    await handler(post({ ...TRANSFER_REQUEST, email: 'b@example.ng' }));
    await handler(post({ ...TRANSFER_REQUEST, email: 'c@example.ng' }));
    assert.equal((await handler(post(TRANSFER_REQUEST, KEY))).status, 200);
    const victim = calls.filter((call) => call.body.email === 'ada@example.ng');
    assert.equal(victim.length, 2);
    assert.equal(victim[1]!.body.paymentReference, victim[0]!.body.paymentReference);
  });

  it('answers 503 server_busy, without calling the gateway, when unfinished records fill the store', async () => {
    const idempotencyStore = createMemoryIdempotencyStore({ maxEntries: 1 });
    const { handler, calls } = makeHandler({ idempotencyStore }, () => new Response(null, { status: 503 }));
    await readError(await handler(post(USSD_REQUEST, KEY)), 502, 'gateway_error');
    const busy = await handler(post(TRANSFER_REQUEST));
    await readError(busy.clone(), 503, 'server_busy');
    assert.ok(busy.headers.get('retry-after'));
    assert.equal(calls.length, 1);
  });

  it('derives the default paymentReference from the key, so even a lost record names the same payment', async () => {
    const forgetful: IdempotencyStore = { get: () => undefined, set: () => {} };
    const order = () => ({ amount: '100', callbackUrl: ORDER.callbackUrl, redirectUrl: ORDER.redirectUrl });
    const { handler, calls } = makeHandler({ idempotencyStore: forgetful, order }, pendingThenSuccess());
    await handler(post(USSD_REQUEST, KEY));
    await handler(post(USSD_REQUEST, KEY));
    const expected = `pw-${createHash('sha256').update(KEY['idempotency-key']).digest('hex').slice(0, 32)}`;
    assert.deepEqual(
      calls.map((call) => call.body.paymentReference),
      [expected, expected],
    );
  });
});

describe('createMemoryIdempotencyStore: room', () => {
  const pending = (fingerprint: string): IdempotencyRecord => ({ state: 'pending', fingerprint, order: ORDER });
  const done = (fingerprint: string): IdempotencyRecord => ({ ...pending(fingerprint), state: 'done', reply: { status: 200, body: '{}' } });

  it('drops finished records first, never a pending one, and refuses a new one when only pending records are left', async () => {
    const store = createMemoryIdempotencyStore({ maxEntries: 2 });
    store.set('old-pending', pending('p'));
    store.set('done', done('d'));
    store.set('new', pending('n'));
    assert.equal(store.get('done'), undefined, 'the finished record made room');
    assert.equal((store.get('old-pending') as IdempotencyRecord | undefined)?.fingerprint, 'p');
    assert.throws(() => store.set('one-more', pending('x')), IdempotencyStoreFullError);
    store.set('new', done('n'));
    assert.equal((store.get('new') as IdempotencyRecord | undefined)?.state, 'done', 'finishing a record needs no room');
  });

  it('lets expired pending records go when it needs room', () => {
    let now = 0;
    const store = createMemoryIdempotencyStore({ maxEntries: 1, ttlMs: 10, now: () => now });
    store.set('a', pending('a'));
    now = 10;
    store.set('b', pending('b'));
    assert.equal((store.get('b') as IdempotencyRecord | undefined)?.fingerprint, 'b');
  });

  it('gives a claim to one caller at a time, until it is released or expires', () => {
    let now = 0;
    const store = createMemoryIdempotencyStore({ lockTtlMs: 100, now: () => now });
    assert.equal(store.reserve('k'), true);
    assert.equal(store.reserve('k'), false);
    store.release('k');
    assert.equal(store.reserve('k'), true);
    now = 100;
    assert.equal(store.reserve('k'), true, 'an abandoned claim expires');
  });
});
