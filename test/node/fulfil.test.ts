// Issue 15, defect 2: `onPaid` runs until it returns, under a lease on the ledger entry. Through the
// one transition (`settlePayment`), as the webhook, the status poll and the reconciler call it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { QueryAnswer } from '../../src/server/gateway/gateway.js';
import { createReconciler, createStatusHandler, createWebhookHandler } from '../../src/server/internal.js';
import { STATUS_SECRET } from './server-fixtures.js';
import { settlePayment, type SettleEvent } from '../../src/server/settlement/settle.js';
import { createMemoryPaymentStore } from '../../src/server/stores/memory.js';
import type { Payment, PaymentStore } from '../../src/server/stores/types.js';
import { answer, countingGateway, ledgerEntry, notify } from './webhook-fixtures.js';

const REFERENCE = 'ORDER-3001';
const PAID: QueryAnswer = {
  kind: 'answer',
  state: 'SUCCESS',
  code: '00',
  amount: 5000,
  currency: 'NGN',
  message: undefined,
};

function pending(): Payment {
  return {
    paymentReference: REFERENCE,
    paymentType: 'USSD',
    amount: '5000.00',
    currency: 'NGN',
    state: 'PENDING',
    version: 1,
    createdAt: 1,
    updatedAt: 1,
  };
}

/** A ledger with one PENDING entry, a clock the test moves, and what onPaid and onEvent saw. */
async function setUp(payments: PaymentStore = createMemoryPaymentStore()) {
  await payments.insert(pending());
  const clock = { time: 1_000_000 };
  const events: SettleEvent[] = [];
  let calls = 0;
  let hook: (payment: Payment) => void | Promise<void> = () => {};
  const context = {
    payments,
    onPaid: async (payment: Payment) => {
      calls += 1;
      await hook(payment);
    },
    emit: (event: SettleEvent) => void events.push(event),
    now: () => clock.time,
  };
  const settle = async () => settlePayment((await payments.get(REFERENCE))!, PAID, context);
  return {
    payments,
    clock,
    events,
    context,
    settle,
    calls: () => calls,
    setHook: (next: typeof hook) => (hook = next),
    stored: async () => (await payments.get(REFERENCE))!,
  };
}

/** A memory ledger whose `update` writes, then throws (the reply was lost) when `lose(payment)` says so. */
function losingReplies(lose: (payment: Payment) => boolean): PaymentStore {
  const memory = createMemoryPaymentStore();
  return {
    ...memory,
    update: (payment) => {
      const written = memory.update(payment);
      if (lose(payment)) throw new Error('ECONNRESET after the write');
      return written;
    },
  };
}

describe('fulfilment: onPaid until it returns, never after, never twice at once', () => {
  it('keeps a payment whose onPaid threw SUCCESS but unfulfilled and due, runs onPaid again on the next call, and never after it returned', async () => {
    const { settle, calls, setHook, stored, events, clock } = await setUp();
    setHook(() => {
      throw new Error('orders DB down');
    });
    const first = await settle();
    assert.equal(first.kind, 'settled');
    assert.equal(calls(), 1);
    let entry = await stored();
    assert.equal(entry.state, 'SUCCESS');
    assert.equal(entry.fulfilledAt, undefined);
    assert.equal(entry.lease, undefined);
    assert.equal(entry.fulfilAttempts, 1);
    assert.ok(entry.dueAt !== undefined && entry.dueAt > clock.time, 'due again after a back-off');
    assert.deepEqual(
      events.find((event) => event.type === 'internal-error'),
      { type: 'internal-error', where: 'onPaid', paymentReference: REFERENCE, detail: 'Error' },
    );
    // The settle result says "verified but unfulfilled".
    assert.equal(first.kind === 'settled' && first.payment.fulfilledAt, undefined);

    setHook(() => {});
    clock.time += 10_000;
    const second = await settle();
    assert.equal(second.kind, 'already-settled');
    assert.equal(calls(), 2);
    entry = await stored();
    assert.equal(entry.fulfilledAt, clock.time);
    assert.equal(entry.dueAt, undefined);
    assert.equal(entry.lease, undefined);
    assert.ok(second.kind === 'already-settled' && second.payment.fulfilledAt === clock.time);

    await settle();
    await settle();
    assert.equal(calls(), 2, 'never again after it returned');
  });

  it('lets one of two concurrent callers run onPaid; the other does not wait for it or run it', async () => {
    const { settle, calls, setHook, stored } = await setUp();
    let finish!: () => void;
    setHook(() => new Promise<void>((resolve) => (finish = resolve)));
    const first = settle();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(calls(), 1);
    const second = await settle();
    assert.equal(second.kind, 'already-settled');
    assert.equal(second.kind === 'already-settled' && second.payment.fulfilledAt, undefined);
    assert.equal(calls(), 1, 'the lease kept the second caller off');
    finish();
    await first;
    assert.notEqual((await stored()).fulfilledAt, undefined);
    await settle();
    assert.equal(calls(), 1);
  });

  it('lets the next caller run onPaid once the lease lapsed (its process died)', async () => {
    const { settle, calls, setHook, stored, clock } = await setUp();
    setHook(() => new Promise<void>(() => {})); // the process "dies" inside onPaid: it never returns
    void settle();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(calls(), 1);
    const leased = await stored();
    assert.ok(leased.lease && leased.lease.until === clock.time + 60_000);
    assert.equal(leased.dueAt, leased.lease.until, 'a lapsed lease is due for the reconciler');

    setHook(() => {});
    clock.time += 59_999;
    await settle();
    assert.equal(calls(), 1, 'the lease still holds');
    clock.time += 1;
    await settle();
    assert.equal(calls(), 2);
    const entry = await stored();
    assert.equal(entry.fulfilledAt, clock.time);
    assert.equal(entry.fulfilAttempts, 2);
  });

  it('fulfils a payment whose settling write landed but whose reply was lost', async () => {
    let loseReplies = 1;
    const lossy = losingReplies((payment) => payment.state === 'SUCCESS' && loseReplies-- > 0);
    const { settle, calls, stored } = await setUp(lossy);
    await settle();
    await settle();
    assert.equal(calls(), 1);
    assert.notEqual((await stored()).fulfilledAt, undefined);
    await settle();
    assert.equal(calls(), 1);
  });

  it('records the fulfilment when the reply to the fulfilment mark is lost', async () => {
    const lossy = losingReplies((payment) => payment.fulfilledAt !== undefined);
    const { settle, calls, stored } = await setUp(lossy);
    const result = await settle();
    assert.notEqual(result.kind === 'settled' && result.payment.fulfilledAt, undefined);
    assert.notEqual((await stored()).fulfilledAt, undefined);
    await settle();
    assert.equal(calls(), 1);
  });

  it('never runs onPaid for a payment settled before fulfilment was recorded (its onPaid ran then)', async () => {
    const payments = createMemoryPaymentStore();
    const { settle, calls, stored } = await setUp(payments);
    // What the previous version wrote: SUCCESS, no fulfilledAt, none of the fulfilment's bookkeeping.
    await payments.update({ ...(await stored()), state: 'SUCCESS', gatewayCode: '00' });
    const result = await settle();
    assert.equal(result.kind, 'already-settled');
    assert.equal(calls(), 0);
  });

  it('works with a store whose methods answer synchronously or asynchronously', async () => {
    const memory = createMemoryPaymentStore();
    const asyncStore = { ...memory };
    for (const name of ['get', 'insert', 'update', 'findByIdempotencyKey', 'claimDue'] as const) {
      const method = memory[name] as (...args: unknown[]) => unknown;
      (asyncStore as Record<string, unknown>)[name] = async (...args: unknown[]) => method(...args);
    }
    for (const payments of [createMemoryPaymentStore(), asyncStore]) {
      const { settle, calls, setHook, stored, clock } = await setUp(payments);
      let fail = true;
      setHook(() => {
        if (fail) throw new Error('once');
      });
      await Promise.all([settle(), settle()]);
      assert.equal(calls(), 1);
      fail = false;
      clock.time += 10_000;
      await Promise.all([settle(), settle(), settle()]);
      assert.equal(calls(), 2);
      assert.notEqual((await stored()).fulfilledAt, undefined);
    }
  });
});

describe('leaseMs on every handler that runs onPaid', () => {
  it('the webhook handler leases onPaid for leaseMs, and refuses a leaseMs that cannot work', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(ledgerEntry('order-lease'));
    const time = 5_000_000;
    const handler = createWebhookHandler({
      gateway: countingGateway(() => answer('00')),
      payments,
      onPaid: () => new Promise<void>(() => {}),
      leaseMs: 5_000,
      now: () => time,
    });
    void handler(notify('order-lease'));
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual((await payments.get('order-lease'))?.lease?.until, time + 5_000);
    assert.throws(
      () =>
        createWebhookHandler({ gateway: countingGateway(() => answer('00')), payments, onPaid: () => {}, leaseMs: 0 }),
      /leaseMs/,
    );
  });
});

describe('onPaidTimeoutMs: how long onPaid is waited for', () => {
  it('answers the webhook 503 within a second while a slow onPaid goes on, and 200 to the delivery after it returned', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(ledgerEntry('order-slow'));
    let finish!: () => void;
    let calls = 0;
    const onPaid = () => {
      calls += 1;
      return new Promise<void>((resolve) => (finish = resolve));
    };
    const handler = createWebhookHandler({
      gateway: countingGateway(() => answer('00')),
      payments,
      onPaid,
      requeryAfterMs: 0,
    });
    const started = Date.now();
    const first = await handler(notify('order-slow'));
    assert.equal(first.status, 503, 'not fulfilled yet: the gateway delivers again');
    assert.ok(Date.now() - started < 2_000, `answered after ${Date.now() - started} ms`);
    assert.equal((await payments.get('order-slow'))?.fulfilledAt, undefined);
    finish();
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.notEqual(
      (await payments.get('order-slow'))?.fulfilledAt,
      undefined,
      'onPaid went on after the answer, and was recorded',
    );
    assert.equal((await handler(notify('order-slow'))).status, 200);
    assert.equal(calls, 1);
  });

  it('records an onPaid that returned after its limit, reported as onPaid-timeout, rather than run it again', async () => {
    const { settle, calls, setHook, stored, events, context } = await setUp();
    Object.assign(context, { onPaidTimeoutMs: 50, now: Date.now });
    setHook(() => new Promise<void>((resolve) => setTimeout(resolve, 150)));
    const result = await settle();
    assert.equal(result.kind === 'settled' && result.payment.fulfilledAt, undefined, 'given up at the limit');
    assert.deepEqual(
      events.find((event) => event.type === 'onPaid-timeout'),
      { type: 'onPaid-timeout', paymentReference: REFERENCE, timeoutMs: 50 },
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.notEqual((await stored()).fulfilledAt, undefined);
    await settle();
    assert.equal(calls(), 1);
  });

  it('is refused, like every time option, unless a positive number of milliseconds', () => {
    const payments = createMemoryPaymentStore();
    const gateway = countingGateway(() => answer('00'));
    for (const onPaidTimeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '30000' as unknown as number]) {
      assert.throws(
        () => createWebhookHandler({ gateway, payments, onPaid: () => {}, onPaidTimeoutMs }),
        /createWebhookHandler: onPaidTimeoutMs must be a positive finite number/,
      );
      assert.throws(
        () => createReconciler({ gateway, payments, onPaid: () => {}, onPaidTimeoutMs }),
        /createReconciler: onPaidTimeoutMs/,
      );
      assert.throws(
        () =>
          createStatusHandler({ statusSecret: STATUS_SECRET, payments, gateway, onPaid: () => {}, onPaidTimeoutMs }),
        /createStatusHandler: onPaidTimeoutMs/,
      );
    }
  });
});
