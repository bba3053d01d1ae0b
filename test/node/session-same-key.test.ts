/**
 * Issue 15 item 5, "Same key, same payment": the README's own resolver returned a random reference,
 * so once a key's idempotency record was gone (evicted by other keys, or past the pending TTL) a
 * retry with the same Idempotency-Key named a new reference and the gateway initiated twice. The
 * ledger, not a cache, now remembers which reference each key started.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from 'redis';
import {
  createMemoryIdempotencyStore,
  createMemoryPaymentStore,
  type Order,
  type SessionEvent,
} from '../../src/server/internal.js';
import { createRedisStores } from '../../src/server/stores/redis/index.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import {
  answerSuccess,
  delay,
  makeHandler,
  newKey,
  ORDER,
  post,
  readError,
  USSD_REQUEST,
  type Responder,
} from './server-fixtures.js';

/** The resolver the README showed: a new random reference every time it runs. */
const randomReferenceOrder = async (): Promise<Order> => ({
  amount: '5000.00',
  currency: 'NGN',
  country: 'NG',
  paymentReference: `order-${crypto.randomUUID()}`,
  callbackUrl: ORDER.callbackUrl,
  redirectUrl: ORDER.redirectUrl,
});

/** The first initiation of each reference times out upstream (a 504-like 503 here); later ones succeed. */
function unclearFirst(): Responder {
  const seen = new Set<string>();
  return (call, signal) => {
    const reference = String(call.body.paymentReference);
    if (seen.has(reference)) return answerSuccess(call, signal);
    seen.add(reference);
    return new Response(null, { status: 503 });
  };
}

const references = (calls: { body: Record<string, unknown> }[]) =>
  calls.map((call) => String(call.body.paymentReference));

describe('createSessionHandler: same key, same payment (issue 15 item 5)', () => {
  it('a retry after other keys evicted the record names the same reference, re-initiated with retry: true', async () => {
    const idempotency = createMemoryIdempotencyStore({ maxEntries: 1 });
    const payments = createMemoryPaymentStore();
    const { handler, calls } = makeHandler({ idempotency, payments, order: randomReferenceOrder });
    const key = { 'idempotency-key': newKey() };

    assert.equal((await handler(post(USSD_REQUEST, key))).status, 200);
    assert.equal((await handler(post(USSD_REQUEST))).status, 200, 'another customer’s payment evicts the record');
    const retry = await handler(post(USSD_REQUEST, key));
    assert.equal(retry.status, 200);
    assert.equal(retry.headers.get('idempotent-replayed'), null, 'the record was really gone');

    const [first, other, again] = calls;
    assert.equal(again!.body.paymentReference, first!.body.paymentReference, 'the same payment, not a second one');
    assert.notEqual(other!.body.paymentReference, first!.body.paymentReference);
    assert.equal(first!.body.retry, undefined, 'a first initiation is not a retry');
    assert.equal(again!.body.retry, true);
    const { order } = (await retry.json()) as { order: { paymentReference: string; amount: string } };
    assert.equal(order.paymentReference, first!.body.paymentReference);
  });

  it('a retry after the pending TTL passed names the same reference', async () => {
    let now = 1_000_000;
    const idempotency = createMemoryIdempotencyStore({ now: () => now });
    const { handler, calls } = makeHandler({ idempotency, order: randomReferenceOrder }, unclearFirst());
    const key = { 'idempotency-key': newKey() };

    await readError(await handler(post(USSD_REQUEST, key)), 502, 'gateway_error');
    now += 11 * 60 * 1000; // past the 10-minute pendingTtlMs
    assert.equal((await handler(post(USSD_REQUEST, key))).status, 200);
    const sent = references(calls);
    assert.equal(new Set(sent).size, 1, `one reference at the gateway: ${sent.join(', ')}`);
    assert.equal(calls[1]!.body.retry, true);
  });

  it('asks about the key’s payment, not the resolver’s new amount, and says so to onEvent', async () => {
    let amount = 2500;
    const idempotency = createMemoryIdempotencyStore({ maxEntries: 1 });
    const { handler, calls, events } = makeHandler({
      idempotency,
      order: async () => ({ ...(await randomReferenceOrder()), amount: `${amount++}.00` }),
    });
    const key = { 'idempotency-key': newKey() };
    await handler(post(USSD_REQUEST, key));
    await handler(post(USSD_REQUEST));
    const retry = await handler(post(USSD_REQUEST, key));
    assert.equal(retry.status, 200);
    assert.equal(calls[2]!.body.amount, '2500.00', 'the amount the payment was started with');
    assert.equal(((await retry.json()) as { order: { amount: string } }).order.amount, '2500.00');
    const notice = events.find(
      (event): event is Extract<SessionEvent, { type: 'replayed-from-ledger' }> =>
        event.type === 'replayed-from-ledger',
    );
    assert.deepEqual(notice, {
      type: 'replayed-from-ledger',
      paymentReference: calls[0]!.body.paymentReference,
      ignored: ['paymentReference', 'amount'],
    });
  });

  it('answers a key whose payment was received without asking the gateway', async () => {
    const idempotency = createMemoryIdempotencyStore({ maxEntries: 1 });
    const payments = createMemoryPaymentStore();
    const { handler, calls } = makeHandler({ idempotency, payments, order: randomReferenceOrder });
    const key = { 'idempotency-key': newKey() };
    await handler(post(USSD_REQUEST, key));
    const paid = (await payments.get(String(calls[0]!.body.paymentReference)))!;
    assert.ok(await payments.update({ ...paid, state: 'SUCCESS' }));
    await handler(post(USSD_REQUEST));

    const error = await readError(await handler(post(USSD_REQUEST, key)), 409, 'order_refused');
    assert.match(error.message, /already received/);
    assert.equal(error.retryable, false);
    assert.equal(calls.length, 2, 'the gateway was not asked again');
  });

  it('treats a key whose payment was refused as spent: start a new payment', async () => {
    const idempotency = createMemoryIdempotencyStore({ maxEntries: 1 });
    const { handler, calls } = makeHandler({ idempotency, order: randomReferenceOrder }, (call, signal) =>
      call.body.email === 'ada@example.ng'
        ? Response.json({ status: 'FAILED' }, { status: 402 })
        : answerSuccess(call, signal),
    );
    const key = { 'idempotency-key': newKey() };
    await readError(await handler(post(USSD_REQUEST, key)), 402, 'payment_declined');
    await handler(post({ ...USSD_REQUEST, email: 'other@example.ng' }));

    const error = await readError(await handler(post(USSD_REQUEST, key)), 422, 'order_refused');
    assert.match(error.message, /new payment/);
    assert.equal(error.retryable, false);
    assert.equal(calls.length, 2);
  });

  it('reuses the entry of a reference the ledger already holds from another key (a cart-derived reference)', async () => {
    const { handler, calls } = makeHandler({ order: () => ({ ...ORDER, paymentReference: 'cart-7' }) }, unclearFirst());
    await readError(await handler(post(USSD_REQUEST)), 502, 'gateway_error');
    assert.equal((await handler(post(USSD_REQUEST))).status, 200, 'another key, the same cart');
    assert.deepEqual(references(calls), ['cart-7', 'cart-7']);
    assert.equal(calls[1]!.body.retry, true);
  });
});

function connect(url: string) {
  // node-redis emits 'error' while it reconnects; an unheard 'error' event would end the process.
  const client = createClient({ url, socket: { reconnectStrategy: () => 50 } });
  client.on('error', () => {});
  return client.connect();
}

describe('same key, same payment on the Redis stores', { timeout: 60_000 }, () => {
  let redis: RedisServer;
  let client: Awaited<ReturnType<typeof connect>> | undefined;

  before(async () => {
    redis = await startRedisServer();
    client = await connect(redis.url);
  });

  after(async () => {
    client?.destroy();
    await redis.stop();
  });

  it('a retry after the record expired names the same reference, from the Redis ledger', async () => {
    const stores = createRedisStores(client!, { prefix: `same-key-${process.pid}:` });
    const { handler, calls } = makeHandler(
      { idempotency: stores.idempotency, payments: stores.payments, order: randomReferenceOrder, pendingTtlMs: 20 },
      unclearFirst(),
    );
    const key = newKey();
    await readError(await handler(post(USSD_REQUEST, { 'idempotency-key': key })), 502, 'gateway_error');
    await delay(60); // Redis drops the pending record (PX 20)
    assert.equal(await stores.idempotency.get(key), undefined, 'the record is gone');
    assert.equal((await handler(post(USSD_REQUEST, { 'idempotency-key': key }))).status, 200);
    const sent = references(calls);
    assert.equal(new Set(sent).size, 1, `one reference at the gateway: ${sent.join(', ')}`);
    assert.equal(calls[1]!.body.retry, true);
    assert.equal((await stores.payments.findByIdempotencyKey(key))?.initiation, 'started');
  });
});
