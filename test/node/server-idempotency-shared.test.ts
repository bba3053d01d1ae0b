import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
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
  deferred,
  delay,
  gatedGateway,
  makeHandler,
  ORDER,
  post,
  TRANSFER_REQUEST,
  readError,
  recordingFetch,
  type Responder,
  USSD_REQUEST,
  withoutTimeLeft,
} from './server-fixtures.js';

const KEY = { 'idempotency-key': 'attempt-5be1a3f0' };

/** A new random reference per call, as a careless resolver would give. */
const randomOrder = () => ({ ...ORDER, paymentReference: `r-${crypto.randomUUID()}` });

/**
 * A store shared by several server instances, like Redis with `SET NX` for `claim`. An instance's
 * `afterFirstRead` runs once its first `get` has read the record and before it returns it: a slow
 * read, which the test ends when it decides.
 */
function sharedStore() {
  const records = new Map<string, IdempotencyRecord>();
  const locks = new Set<string>();
  const store = (afterFirstRead?: () => Promise<void>): IdempotencyStore => {
    let reads = 0;
    return {
      async get(key) {
        const record = records.get(key);
        if ((reads += 1) === 1) await afterFirstRead?.();
        return record;
      },
      async set(key, record) {
        records.set(key, record);
      },
      async claim(key) {
        if (locks.has(key)) return false;
        locks.add(key);
        return true;
      },
      async release(key) {
        locks.delete(key);
      },
    };
  };
  return { store, records, locks };
}

describe('createSessionHandler: Idempotency-Key across instances sharing a store', () => {
  it('takes the claim before reading the record, so a slow read cannot let two instances pay', async () => {
    const shared = sharedStore();
    const gateway = gatedGateway();
    const upstream = recordingFetch(gateway.respond);
    const bReads = deferred();
    const aAnswered = deferred();
    const one = makeHandler({ ...PATIENT, idempotency: shared.store(), order: randomOrder, fetch: upstream.fetch });
    // B's first read is slow: it reads "no record", and returns it only once A has answered and
    // released its claim. Reading before claiming, B would then find the claim free and pay again.
    const slowRead = () => (bReads.resolve(), aAnswered.promise);
    const two = makeHandler({
      ...PATIENT,
      idempotency: shared.store(slowRead),
      order: randomOrder,
      fetch: upstream.fetch,
    });
    const first = one.handler(post(TRANSFER_REQUEST, KEY));
    await gateway.asked;
    const second = two.handler(post(TRANSFER_REQUEST, KEY));
    await bReads.promise;
    gateway.answer();
    const a = await first;
    aAnswered.resolve();
    const b = await second;
    assert.equal(upstream.calls.length, 1, 'one payment');
    assert.equal(a.status, 200);
    assert.equal(b.status, 200);
    assert.equal(withoutTimeLeft(await b.text()), withoutTimeLeft(await a.text()));
    assert.equal(b.headers.get('idempotent-replayed'), 'true');
    assert.equal(shared.locks.size, 0, 'every claim released');
  });

  it('waits for a claim held elsewhere and replays the answer stored meanwhile, instead of 409', async () => {
    const shared = sharedStore();
    // Another instance holds the claim, and stores its answer just after this one first read none.
    shared.locks.add(KEY['idempotency-key']);
    const elsewhere = createMemoryIdempotencyStore();
    await makeHandler({ idempotency: elsewhere }).handler(post(USSD_REQUEST, KEY));
    const stored = (await elsewhere.get(KEY['idempotency-key']))!;
    const storedElsewhere = async () => {
      shared.records.set(KEY['idempotency-key'], stored);
      shared.locks.delete(KEY['idempotency-key']);
    };
    const { handler, calls } = makeHandler({ ...PATIENT, idempotency: shared.store(storedElsewhere) });
    const response = await handler(post(USSD_REQUEST, KEY));
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(response.headers.get('idempotent-replayed'), 'true');
    assert.equal(calls.length, 0);
  });

  it('makes one payment for two handlers sharing the in-memory store in one process', async () => {
    const memory = createMemoryIdempotencyStore();
    const gateway = gatedGateway();
    // The gateway answers the first handler only once the second has found the key claimed.
    const idempotency: IdempotencyStore = {
      ...memory,
      claim: async (key, ttlMs) => (await memory.claim(key, ttlMs)) || (gateway.answer(), false),
    };
    const upstream = recordingFetch(gateway.respond);
    const one = makeHandler({ ...PATIENT, idempotency, order: randomOrder, fetch: upstream.fetch });
    const two = makeHandler({ ...PATIENT, idempotency, order: randomOrder, fetch: upstream.fetch });
    const [a, b] = await Promise.all([one.handler(post(USSD_REQUEST, KEY)), two.handler(post(USSD_REQUEST, KEY))]);
    assert.equal(upstream.calls.length, 1);
    assert.equal(a.status, 200);
    assert.equal(withoutTimeLeft(await b.text()), withoutTimeLeft(await a.text()));
  });
});

describe('createSessionHandler: a store failing after the payment was made', () => {
  it('still answers with the instructions when storing the answer fails, and reports it', async () => {
    const inner = createMemoryIdempotencyStore();
    const store: IdempotencyStore = {
      ...inner,
      set: (key, record, ttlMs) => {
        if (record.state === 'done') throw new Error('redis: connection lost');
        return inner.set(key, record, ttlMs);
      },
    };
    const { handler, calls, events } = makeHandler({ idempotency: store });
    const response = await handler(post(USSD_REQUEST, KEY));
    assert.equal(response.status, 200);
    assert.equal(calls.length, 1);
    assert.ok(
      events.some((e) => e.type === 'internal-error' && e.where === 'store' && /connection lost/.test(e.detail)),
    );
  });

  it('still answers with the instructions when releasing the claim throws or rejects', async () => {
    for (const release of [
      () => {
        throw new Error('redis: DEL timed out');
      },
      () => Promise.reject(new Error('redis: DEL timed out')),
    ]) {
      const inner = createMemoryIdempotencyStore();
      const store: IdempotencyStore = { get: inner.get, set: inner.set, claim: () => true, release };
      const { handler, events } = makeHandler({ idempotency: store });
      const response = await handler(post(USSD_REQUEST, KEY));
      assert.equal(response.status, 200);
      await delay(0);
      assert.ok(
        events.some((e) => e.type === 'internal-error' && e.where === 'store' && /DEL timed out/.test(e.detail)),
      );
    }
  });
});

describe('createSessionHandler: a store no sequence of requests can fill', () => {
  const pendingThenSuccess = () => {
    let attempt = 0;
    return ((call, signal) =>
      ++attempt === 1
        ? Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } }))
        : answerSuccess(call, signal)) as Responder;
  };

  /** A store that counts what it was asked to keep. */
  function countingStore(maxEntries = 10_000) {
    const inner = createMemoryIdempotencyStore({ maxEntries });
    const written: { key: string; state: string; ttlMs: number }[] = [];
    const store: IdempotencyStore = {
      ...inner,
      set: (key, record, ttlMs) => (written.push({ key, state: record.state, ttlMs }), inner.set(key, record, ttlMs)),
    };
    return { store, written };
  }

  it('stores nothing for requests that never reached the gateway', async () => {
    const { store, written } = countingStore();
    let refuse = true;
    const { handler, calls } = makeHandler({
      idempotency: store,
      order: () => {
        if (refuse) throw new OrderError('Sold out.');
        return ORDER;
      },
    });
    for (let i = 0; i < 50; i += 1) await readError(await handler(post(USSD_REQUEST)), 422, 'order_refused');
    await readError(await handler(post({ ...USSD_REQUEST, email: 'not an e-mail' })), 400, 'validation');
    assert.deepEqual(written, []);
    assert.equal(calls.length, 0);
    refuse = false;
    assert.equal((await handler(post(USSD_REQUEST))).status, 200);
  });

  it('stores a gateway 4xx as done, replayed without asking again, and keeps a pending order only for pendingTtlMs', async () => {
    const { store, written } = countingStore();
    // A reference per attempt: the ledger answers a reference it holds refused without asking (issue 15).
    const { handler, calls } = makeHandler({ idempotency: store, pendingTtlMs: 120_000, order: randomOrder }, (call) =>
      call.body.email === 'ada@example.ng'
        ? Response.json({ status: 'ERROR', message: 'Invalid mobile number for this bank' }, { status: 400 })
        : new Response('bad gateway', { status: 502 }),
    );
    await readError(await handler(post(USSD_REQUEST, KEY)), 502, 'gateway_error');
    const replay = await handler(post(USSD_REQUEST, KEY));
    await readError(replay.clone(), 502, 'gateway_error');
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal(calls.length, 1, 'a definitive 4xx is not asked again');
    await readError(await handler(post({ ...USSD_REQUEST, email: 'b@example.ng' })), 502, 'gateway_error');
    assert.deepEqual(
      written.map(({ state, ttlMs }) => `${state} ${ttlMs}`),
      ['done 86400000', 'pending 120000'],
    );
  });

  it('treats the gateway’s 429 and 408 as "not yet": the retry asks again with the same reference', async () => {
    for (const status of [429, 408]) {
      let attempt = 0;
      const { handler, calls } = makeHandler({ order: randomOrder }, (call, signal) =>
        ++attempt === 1 ? new Response(null, { status }) : answerSuccess(call, signal),
      );
      await readError(await handler(post(USSD_REQUEST, KEY)), 502, 'gateway_error');
      assert.equal((await handler(post(USSD_REQUEST, KEY))).status, 200, String(status));
      assert.equal(calls.length, 2);
      assert.equal(calls[1]!.body.paymentReference, calls[0]!.body.paymentReference);
    }
  });

  it('keeps accepting new payments however many attempts were left pending, in a store of 2', async () => {
    const idempotency = createMemoryIdempotencyStore({ maxEntries: 2 });
    const { handler, calls } = makeHandler({ idempotency }, (call, signal) =>
      call.body.email === 'honest@example.ng' ? answerSuccess(call, signal) : new Response(null, { status: 503 }),
    );
    for (let i = 0; i < 20; i += 1) await readError(await handler(post(USSD_REQUEST)), 502, 'gateway_error');
    const honest = await handler(post({ ...USSD_REQUEST, email: 'honest@example.ng' }));
    assert.equal(honest.status, 200);
    assert.equal(calls.length, 21);
  });

  it('keeps a pending record through other traffic: the retry sends the same reference', async () => {
    const idempotency = createMemoryIdempotencyStore({ maxEntries: 2 });
    const { handler, calls } = makeHandler({ idempotency, order: randomOrder }, pendingThenSuccess());
    await readError(await handler(post(TRANSFER_REQUEST, KEY)), 502, 'gateway_unreachable');
    await handler(post({ ...TRANSFER_REQUEST, email: 'b@example.ng' }));
    await handler(post({ ...TRANSFER_REQUEST, email: 'c@example.ng' }));
    assert.equal((await handler(post(TRANSFER_REQUEST, KEY))).status, 200);
    const victim = calls.filter((call) => call.body.email === 'ada@example.ng');
    assert.equal(victim.length, 2);
    assert.equal(victim[1]!.body.paymentReference, victim[0]!.body.paymentReference);
  });

  it('derives the default paymentReference from the key, so even a lost record names the same payment', async () => {
    const forgetful: IdempotencyStore = { get: () => undefined, set: () => {}, claim: () => true, release: () => {} };
    const order = () => ({ amount: '100', callbackUrl: ORDER.callbackUrl, redirectUrl: ORDER.redirectUrl });
    const { handler, calls } = makeHandler({ idempotency: forgetful, order }, pendingThenSuccess());
    await handler(post(USSD_REQUEST, KEY));
    await handler(post(USSD_REQUEST, KEY));
    const expected = `pw-${createHash('sha256').update(KEY['idempotency-key']).digest('hex').slice(0, 32)}`;
    assert.deepEqual(
      calls.map((call) => call.body.paymentReference),
      [expected, expected],
    );
  });
});
