import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createMemoryIdempotencyStore,
  type IdempotencyRecord,
  type IdempotencyStore,
  OrderError,
} from '../../src/server/internal.js';
import {
  answerSuccess,
  PATIENT,
  gatedGateway,
  makeHandler,
  ORDER,
  post,
  readError,
  turns,
  USSD_REQUEST,
  withoutTimeLeft,
} from './server-fixtures.js';

const KEY = { 'idempotency-key': 'attempt-7d1c0c44' };

/**
 * Answers the gateway's calls once every request started so far is waiting: at the gateway, or on
 * the attempt in flight for its key (nothing but promises moves them there, so turns() suffices).
 */
async function answerOnceAllWait(gateway: ReturnType<typeof gatedGateway>): Promise<void> {
  await gateway.asked;
  await turns();
  gateway.answer();
}

function countingOrder() {
  const counter = { calls: 0 };
  const order = () => {
    counter.calls += 1;
    return { ...ORDER, paymentReference: `order-${counter.calls}` };
  };
  return { counter, order };
}

describe('createSessionHandler: Idempotency-Key', () => {
  it('makes one upstream call for two simultaneous requests, and both get the same answer', async () => {
    const gateway = gatedGateway();
    const { handler, calls } = makeHandler(PATIENT, gateway.respond);
    const both = Promise.all([handler(post(USSD_REQUEST, KEY)), handler(post(USSD_REQUEST, KEY))]);
    await answerOnceAllWait(gateway);
    const [first, second] = await both;
    assert.equal(calls.length, 1);
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.equal(withoutTimeLeft(await first.text()), withoutTimeLeft(await second.text()));
  });

  it('replays the stored answer to a later duplicate, without resolving the order again', async () => {
    const { counter, order } = countingOrder();
    const { handler, calls, events } = makeHandler({ order });
    const first = await handler(post(USSD_REQUEST, KEY));
    const later = await handler(post(USSD_REQUEST, KEY));
    assert.equal(calls.length, 1);
    assert.equal(counter.calls, 1);
    assert.equal(later.status, first.status);
    assert.equal(withoutTimeLeft(await later.text()), withoutTimeLeft(await first.text()));
    assert.equal(later.headers.get('idempotent-replayed'), 'true');
    assert.equal(first.headers.get('idempotent-replayed'), null);
    assert.deepEqual(events.at(-1), { type: 'replayed', idempotencyKey: KEY['idempotency-key'], status: 200 });
  });

  it('treats requests that differ only in spacing or phone separators as the same request', async () => {
    const { handler, calls } = makeHandler();
    await handler(post(USSD_REQUEST, KEY));
    const again = await handler(
      post({ ...USSD_REQUEST, fullName: ' Ada Obi ', mobileNumber: '+234-803-000-0000' }, KEY),
    );
    assert.equal(again.status, 200);
    assert.equal(calls.length, 1);
  });

  it('calls the gateway once per distinct key', async () => {
    const gateway = gatedGateway();
    const { handler, calls } = makeHandler(PATIENT, gateway.respond);
    const all = Promise.all([
      handler(post(USSD_REQUEST, { 'idempotency-key': 'attempt-aaaaaaaa' })),
      handler(post(USSD_REQUEST, { 'idempotency-key': 'attempt-bbbbbbbb' })),
      handler(post(USSD_REQUEST)),
    ]);
    await answerOnceAllWait(gateway);
    assert.equal(calls.length, 3, 'all three are at the gateway at once');
    await all;
    assert.equal(calls.length, 3);
  });

  it('refuses a key reused with a different body, later or concurrently, with 422', async () => {
    const gateway = gatedGateway();
    const { handler, calls } = makeHandler(PATIENT, gateway.respond);
    const both = Promise.all([
      handler(post(USSD_REQUEST, KEY)),
      handler(post({ ...USSD_REQUEST, bankCode: '044' }, KEY)),
    ]);
    await answerOnceAllWait(gateway);
    const [first, concurrent] = await both;
    assert.equal(first.status, 200);
    await readError(concurrent, 422, 'idempotency_key_reused');
    await readError(
      await handler(post({ ...USSD_REQUEST, paymentType: 'TRANSFER' }, KEY)),
      422,
      'idempotency_key_reused',
    );
    assert.equal(calls.length, 1);
  });

  it('retries after a time-out with the same paymentReference, so the gateway cannot make a second payment', async (t) => {
    // The clock is mocked: the gateway's time-out passes when the test ticks it, and nothing after
    // it can run out of time however loaded the machine.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { counter, order } = countingOrder();
    const gateway = gatedGateway();
    let attempt = 0;
    const { handler, calls } = makeHandler({ order, timeoutMs: 40 }, (call, signal) =>
      ++attempt === 1 ? gateway.respond(call, signal) : answerSuccess(call, signal),
    );
    const timedOut = handler(post(USSD_REQUEST, KEY));
    await gateway.asked;
    t.mock.timers.tick(40);
    await readError(await timedOut, 504, 'gateway_timeout');
    const retry = await handler(post(USSD_REQUEST, KEY));
    assert.equal(retry.status, 200);
    assert.equal(counter.calls, 1, 'the order was resolved once for the key');
    assert.deepEqual(
      calls.map((call) => call.body.paymentReference),
      ['order-1', 'order-1'],
    );

    await handler(post(USSD_REQUEST, KEY));
    assert.equal(calls.length, 2, 'the success is stored');
  });

  it('asks the gateway again after a 5xx, with the same reference', async () => {
    let attempt = 0;
    const { handler, calls } = makeHandler({}, (call, signal) =>
      ++attempt === 1 ? new Response(null, { status: 503 }) : answerSuccess(call, signal),
    );
    await readError(await handler(post(USSD_REQUEST, KEY)), 502, 'gateway_error');
    assert.equal((await handler(post(USSD_REQUEST, KEY))).status, 200);
    assert.equal(calls.length, 2);
    assert.equal(calls[0]!.body.paymentReference, calls[1]!.body.paymentReference);
  });

  it('stores a decline as a definitive answer', async () => {
    const { handler, calls } = makeHandler({}, () =>
      Response.json({ status: 'FAILED', data: { message: 'Insufficient funds' } }, { status: 402 }),
    );
    await readError(await handler(post(USSD_REQUEST, KEY)), 402, 'payment_declined');
    const replay = await handler(post(USSD_REQUEST, KEY));
    await readError(replay, 402, 'payment_declined');
    assert.equal(calls.length, 1);
  });

  it('does not store a refused order: a retry asks the resolver again', async () => {
    let open = false;
    const { handler, calls } = makeHandler({
      order: async () => {
        if (!open) throw new OrderError('Closed for now.');
        return ORDER;
      },
    });
    await readError(await handler(post(USSD_REQUEST, KEY)), 422, 'order_refused');
    open = true;
    assert.equal((await handler(post(USSD_REQUEST, KEY))).status, 200);
    assert.equal(calls.length, 1);
  });

  it('shares answers between handlers that share a store (several server instances)', async () => {
    const idempotency = createMemoryIdempotencyStore();
    const one = makeHandler({ idempotency });
    const two = makeHandler({ idempotency });
    const first = await one.handler(post(USSD_REQUEST, KEY));
    const second = await two.handler(post(USSD_REQUEST, KEY));
    assert.equal(withoutTimeLeft(await second.text()), withoutTimeLeft(await first.text()));
    assert.equal(one.calls.length + two.calls.length, 1);
  });

  it('answers 409 when a shared store says another instance holds the key', async () => {
    const store = createMemoryIdempotencyStore();
    const released: string[] = [];
    const busy: IdempotencyStore = { ...store, claim: () => false, release: (key) => void released.push(key) };
    const { handler, calls } = makeHandler({ idempotency: busy });
    const response = await handler(post(USSD_REQUEST, KEY));
    await readError(response.clone(), 409, 'idempotency_key_in_use');
    assert.equal(response.headers.get('retry-after'), '1');
    assert.equal(calls.length, 0);
    assert.deepEqual(released, [], 'a key it did not reserve is not released');
  });

  it('claims and releases the key around an attempt, and writes only its outcome', async () => {
    const store = createMemoryIdempotencyStore();
    const log: string[] = [];
    const locking: IdempotencyStore = {
      get: store.get,
      set: (key, record, ttlMs) => {
        log.push(`set ${record.state} for ${ttlMs} ms`);
        return store.set(key, record, ttlMs);
      },
      claim: (key, ttlMs) => (log.push(`claim ${key}`), store.claim(key, ttlMs)),
      release: (key) => void log.push(`release ${key}`),
    };
    const { handler } = makeHandler({ idempotency: locking, idempotencyTtlMs: 60_000 });
    await handler(post(USSD_REQUEST, KEY));
    const key = KEY['idempotency-key'];
    assert.deepEqual(log, [`claim ${key}`, 'set done for 60000 ms', `release ${key}`]);
  });

  it('answers 503 server_busy with Retry-After, without calling the gateway, when the store fails', async () => {
    const inner = createMemoryIdempotencyStore();
    const brokenGet: IdempotencyStore = { ...inner, get: () => Promise.reject(new Error('redis down')) };
    const brokenClaim: IdempotencyStore = { ...inner, claim: () => Promise.reject(new Error('redis down')) };
    for (const idempotency of [brokenGet, brokenClaim]) {
      const { handler, calls, events } = makeHandler({ idempotency });
      const response = await handler(post(USSD_REQUEST, KEY));
      await readError(response.clone(), 503, 'server_busy');
      assert.ok(Number(response.headers.get('retry-after')) > 0);
      assert.equal(calls.length, 0);
      assert.ok(events.some((e) => e.type === 'internal-error' && e.where === 'store' && /redis down/.test(e.detail)));
    }
  });

  it('refuses, when created, a store that cannot claim a key atomically', () => {
    const inner = createMemoryIdempotencyStore();
    const getSetOnly = { get: inner.get, set: inner.set } as unknown as IdempotencyStore;
    const noRelease = { ...inner, release: undefined } as unknown as IdempotencyStore;
    for (const idempotency of [getSetOnly, noRelease, {} as IdempotencyStore]) {
      assert.throws(
        () => makeHandler({ idempotency }),
        (error: unknown) => {
          assert.ok(error instanceof TypeError);
          assert.match(error.message, /idempotency store .*claim.*atomically|atomically.*(claim|release)/);
          return true;
        },
      );
    }
    assert.throws(() => makeHandler({ idempotency: getSetOnly }), TypeError, 'the former option name too');
    assert.throws(
      () => makeHandler({ payments: { get: () => undefined } as never }),
      /payments store lacks insert\(\), update\(\)/,
    );
  });
});

describe('createMemoryIdempotencyStore', () => {
  const record = (fingerprint: string): IdempotencyRecord => ({
    state: 'done',
    fingerprint,
    order: ORDER,
    reply: { status: 200, body: '{}' },
  });

  it('forgets a record after the ttlMs it was set with', () => {
    let now = 1_000;
    const store = createMemoryIdempotencyStore({ now: () => now });
    store.set('k', record('a'), 100);
    now += 99;
    assert.equal((store.get('k') as IdempotencyRecord | undefined)?.fingerprint, 'a');
    now += 1;
    assert.equal(store.get('k'), undefined);
  });

  it('drops the oldest finished records beyond maxEntries', () => {
    const store = createMemoryIdempotencyStore({ maxEntries: 2 });
    store.set('a', record('a'), 60_000);
    store.set('b', record('b'), 60_000);
    store.set('a', record('a2'), 60_000);
    store.set('c', record('c'), 60_000);
    assert.equal(store.get('b'), undefined, 'b was the oldest write');
    assert.equal((store.get('a') as IdempotencyRecord | undefined)?.fingerprint, 'a2');
    assert.equal((store.get('c') as IdempotencyRecord | undefined)?.fingerprint, 'c');
  });

  it('gives a claim to one caller at a time, until it is released or lapses', () => {
    let now = 0;
    const store = createMemoryIdempotencyStore({ now: () => now });
    assert.equal(store.claim('k', 100), true);
    assert.equal(store.claim('k', 100), false);
    store.release('k');
    assert.equal(store.claim('k', 100), true);
    now = 100;
    assert.equal(store.claim('k', 100), true, 'an abandoned claim lapses');
  });
});
