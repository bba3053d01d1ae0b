// Issue 26: a payment of another amount, or one confirmed after the gateway had said it failed or
// expired, is said plainly. The status answer carries `reason` (and `amountReceived` when known),
// the merchant hears `needs-review` once, and the ledger entry keeps `review`, never expiring:
// not fulfilled (for a wrong amount), not lost.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type RedisClientType } from 'redis';
import {
  createMemoryPaymentStore,
  createStatusHandler,
  type Gateway,
  type Payment,
  type PaymentStore,
  type QueryOutcome,
  type StatusEvent,
} from '../../src/server/internal.js';
import { createRedisStores } from '../../src/server/stores/redis/index.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { STATUS_SECRET, statusBody, statusTokenFor } from './server-fixtures.js';

const REFERENCE = 'order-review-1';
const DAY = 24 * 60 * 60 * 1000;

function entry(overrides: Partial<Payment> = {}): Payment {
  return {
    paymentReference: REFERENCE,
    paymentType: 'TRANSFER',
    amount: '10000.00',
    currency: 'NGN',
    state: 'PENDING',
    version: 1,
    createdAt: 1,
    updatedAt: 1,
    initiation: 'started',
    ...overrides,
  };
}

const paid = (changes: Partial<Extract<QueryOutcome, { kind: 'answer' }>> = {}): QueryOutcome => ({
  kind: 'answer',
  state: 'SUCCESS',
  code: '00',
  amount: 10000,
  currency: 'NGN',
  message: undefined,
  ...changes,
});
const FAILED: QueryOutcome = {
  kind: 'answer',
  state: 'FAILED',
  code: 'SM_X23',
  amount: 10000,
  currency: 'NGN',
  message: 'Expired',
};

/** The status handler on `payments`, its gateway answering `outcome` (changeable), every event and hook call recorded. */
function statusEndpoint(payments: PaymentStore, first: QueryOutcome) {
  let outcome = first;
  const gateway: Pick<Gateway, 'query'> = { query: async () => structuredClone(outcome) };
  const events: StatusEvent[] = [];
  const onPaid: Payment[] = [];
  const onFailed: Payment[] = [];
  const handler = createStatusHandler({
    statusSecret: STATUS_SECRET,
    payments,
    gateway,
    onPaid: (payment) => void onPaid.push(payment),
    onFailed: (payment) => void onFailed.push(payment),
    onEvent: (event) => void events.push(event),
    recheckAfterMs: 0,
  });
  const poll = async () => {
    const url = `https://shop.test/pay/status?paymentReference=${REFERENCE}&statusToken=${await statusTokenFor(REFERENCE)}&recheck=1`;
    const response = await handler(new Request(url));
    assert.equal(response.status, 200);
    return statusBody(response);
  };
  return { poll, events, onPaid, onFailed, answer: (next: QueryOutcome) => (outcome = next) };
}

const reviews = (events: StatusEvent[]) => events.filter((event) => event.type === 'needs-review');

describe('a payment of another amount', () => {
  it('answers PENDING with reason amount-mismatch and the amount received; onPaid never runs; needs-review is heard once', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(entry());
    const endpoint = statusEndpoint(payments, paid({ amount: 9500 }));
    const expected = {
      status: 'PENDING',
      amount: '10000.00',
      currency: 'NGN',
      reason: 'amount-mismatch',
      amountReceived: '9500',
    };
    assert.deepEqual(await endpoint.poll(), expected);
    assert.deepEqual(await endpoint.poll(), expected, 'the next poll says the same');
    assert.deepEqual(reviews(endpoint.events), [
      {
        type: 'needs-review',
        paymentReference: REFERENCE,
        state: 'PENDING',
        reason: 'amount-mismatch',
        amountReceived: '9500',
      },
    ]);
    assert.equal(
      endpoint.events.filter((event) => event.type === 'amount-mismatch').length,
      2,
      'each query is still reported',
    );
    assert.equal(endpoint.onPaid.length, 0);
    const stored = await payments.get(REFERENCE);
    assert.equal(stored?.state, 'PENDING');
    assert.equal(stored?.fulfilledAt, undefined);
    assert.deepEqual({ ...stored?.review, since: 0 }, { reason: 'amount-mismatch', since: 0, amountReceived: '9500' });
  });

  it('names the currency received when it differs, and leaves the amount out when the gateway gave none', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(entry());
    const endpoint = statusEndpoint(payments, paid({ amount: 25, currency: 'usd' }));
    assert.deepEqual(await endpoint.poll(), {
      status: 'PENDING',
      amount: '10000.00',
      currency: 'NGN',
      reason: 'amount-mismatch',
      amountReceived: '25',
      currencyReceived: 'USD',
    });
    const garbled = createMemoryPaymentStore();
    await garbled.insert(entry());
    const echoing = statusEndpoint(garbled, paid({ amount: 1e-7, currency: 'NGN <script>' }));
    assert.deepEqual(
      await echoing.poll(),
      { status: 'PENDING', amount: '10000.00', currency: 'NGN', reason: 'amount-mismatch' },
      'only a figure and a code are passed on',
    );
    const other = createMemoryPaymentStore();
    await other.insert(entry());
    const unknownAmount = statusEndpoint(
      other,
      paid({ amount: undefined, code: 'SM_10', state: 'PENDING', report: 'partial-amount' }),
    );
    assert.deepEqual(await unknownAmount.poll(), {
      status: 'PENDING',
      amount: '10000.00',
      currency: 'NGN',
      reason: 'amount-mismatch',
    });
  });

  it('after the payment had failed: the entry stays FAILED, onFailed does not run again, and it is marked for review', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(entry());
    const endpoint = statusEndpoint(payments, FAILED);
    assert.equal((await endpoint.poll()).status, 'FAILED');
    endpoint.answer(paid({ amount: 9500 }));
    // A FAILED entry is not re-queried by a poll: the reconciler or a webhook asks again.
    const { verifyAndSettle } = await import('../../src/server/settlement/settle.js');
    const events: unknown[] = [];
    await verifyAndSettle(
      (await payments.get(REFERENCE))!,
      { query: async () => paid({ amount: 9500 }) },
      {
        payments,
        onPaid: () => assert.fail('not paid'),
        onFailed: () => assert.fail('not failed again'),
        emit: (event) => void events.push(event),
      },
    );
    assert.deepEqual(await endpoint.poll(), {
      status: 'FAILED',
      amount: '10000.00',
      currency: 'NGN',
      reason: 'amount-mismatch',
      amountReceived: '9500',
    });
    assert.equal((await payments.get(REFERENCE))?.gatewayCode, 'SM_X23', 'the failure that was verified stands');
    assert.deepEqual(
      events.map((event) => (event as { type: string }).type),
      ['verified', 'amount-mismatch', 'needs-review'],
    );
  });

  it('paid in full in the end: SUCCESS, onPaid runs, and nothing is left for review', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(entry());
    const endpoint = statusEndpoint(payments, paid({ amount: 9500 }));
    assert.equal((await endpoint.poll()).reason, 'amount-mismatch');
    endpoint.answer(paid());
    assert.deepEqual(await endpoint.poll(), { status: 'SUCCESS', amount: '10000.00', currency: 'NGN' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(endpoint.onPaid.length, 1);
    assert.equal((await payments.get(REFERENCE))?.review, undefined);
  });
});

describe('a payment confirmed after the gateway said it expired', () => {
  it('answers SUCCESS with reason after-expiry, runs onPaid, and marks the entry for review', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(entry({ state: 'FAILED', gatewayCode: 'SM_X23' }));
    const { verifyAndSettle } = await import('../../src/server/settlement/settle.js');
    const events: unknown[] = [];
    const fulfilled: Payment[] = [];
    await verifyAndSettle(
      (await payments.get(REFERENCE))!,
      { query: async () => paid() },
      {
        payments,
        onPaid: (payment) => void fulfilled.push(payment),
        emit: (event) => void events.push(event),
      },
    );
    assert.deepEqual(
      events.map((event) => (event as { type: string }).type),
      ['verified', 'needs-review', 'late-success', 'fulfilled'],
    );
    assert.equal(fulfilled.length, 1);
    assert.equal(fulfilled[0]?.review?.reason, 'after-expiry', 'onPaid sees the review');
    const endpoint = statusEndpoint(payments, paid());
    assert.deepEqual(await endpoint.poll(), {
      status: 'SUCCESS',
      amount: '10000.00',
      currency: 'NGN',
      reason: 'after-expiry',
    });
    const stored = await payments.get(REFERENCE);
    assert.notEqual(stored?.fulfilledAt, undefined);
    assert.equal(stored?.review?.reason, 'after-expiry');
  });
});

describe('an entry marked for review is never expired', () => {
  const reviewed = (reference: string): Payment =>
    entry({
      paymentReference: reference,
      state: 'FAILED',
      review: { reason: 'amount-mismatch', since: 5, amountReceived: '9500' },
    });

  it('memory: kept past its time to live, while a finished entry beside it goes', async () => {
    let time = 1_000;
    const payments = createMemoryPaymentStore({ now: () => time, ttlMs: DAY });
    await payments.insert(reviewed('kept'));
    await payments.insert(entry({ paymentReference: 'finished', state: 'FAILED' }));
    time += 2 * DAY;
    await payments.insert(entry({ paymentReference: 'next' }));
    assert.equal(await payments.get('finished'), undefined);
    assert.deepEqual((await payments.get('kept'))?.review, {
      reason: 'amount-mismatch',
      since: 5,
      amountReceived: '9500',
    });
  });

  describe('Redis', { timeout: 60_000 }, () => {
    let redis: RedisServer;
    let client: RedisClientType;
    before(async () => {
      redis = await startRedisServer();
      client = createClient({ url: redis.url });
      await client.connect();
    });
    after(async () => {
      client.destroy();
      await redis.stop();
    });

    it('keeps the entry with no expiry, while a finished one gets its time to live', async () => {
      const { payments } = createRedisStores(client, { prefix: 'review:', paymentTtlMs: DAY });
      await payments.insert(reviewed('kept'));
      await payments.insert(entry({ paymentReference: 'finished', state: 'FAILED' }));
      assert.equal(await client.pTTL('review:payment:kept'), -1);
      assert.ok((await client.pTTL('review:payment:finished')) > 0);
      const kept = (await payments.get('kept'))!;
      // Moved on (say, its fulfilment recorded) it still never expires.
      assert.equal(await payments.update({ ...kept, checkedAt: 7 }), true);
      assert.equal(await client.pTTL('review:payment:kept'), -1);
      assert.equal((await payments.get('kept'))?.review?.amountReceived, '9500');
    });
  });
});
