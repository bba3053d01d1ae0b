// Issue 15 (fulfilment as a state of the entry): the status handler tells the customer SUCCESS as
// soon as the payment is verified, whatever `onPaid` is doing, and a poll of a verified payment
// still owed fulfilment runs `onPaid` again (in the background, after its back-off, never while
// another caller holds the lease).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createMemoryPaymentStore,
  createStatusHandler,
  type Payment,
  type QueryOutcome,
} from '../../src/server/internal.js';
import { STATUS_SECRET, statusTokenFor } from './server-fixtures.js';

const REFERENCE = 'order-5001';
const PAID: QueryOutcome = {
  kind: 'answer',
  state: 'SUCCESS',
  code: '00',
  amount: 2500,
  currency: 'NGN',
  message: 'Approved',
};

function entry(overrides: Partial<Payment> = {}): Payment {
  return {
    paymentReference: REFERENCE,
    paymentType: 'USSD',
    amount: '2500.00',
    currency: 'NGN',
    state: 'PENDING',
    version: 1,
    createdAt: 1,
    updatedAt: 1,
    ...overrides,
  };
}

async function statusOf(handler: (request: Request) => Promise<Response>): Promise<string> {
  const request = new Request(
    `https://shop.test/pay/status?paymentReference=${REFERENCE}&statusToken=${await statusTokenFor(REFERENCE)}`,
  );
  return ((await (await handler(request)).json()) as { status: string }).status;
}

/** Lets pending promise callbacks (the background fulfilment) run. */
const settleDown = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('the status handler and fulfilment', () => {
  it('answers SUCCESS as soon as the payment is verified, while onPaid is still running', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(entry());
    let calls = 0;
    const handler = createStatusHandler({
      statusSecret: STATUS_SECRET,
      payments,
      gateway: { query: async () => PAID },
      onPaid: () => {
        calls += 1;
        return new Promise<void>(() => {}); // a slow fulfilment: never returns within the poll
      },
      recheckAfterMs: 0,
      timeoutMs: 200,
    });
    assert.equal(await statusOf(handler), 'SUCCESS');
    assert.equal(calls, 1);
    const stored = await payments.get(REFERENCE);
    assert.equal(stored?.state, 'SUCCESS');
    assert.equal(stored?.fulfilledAt, undefined);
    assert.ok(stored?.lease, 'onPaid holds the lease');
    assert.equal(await statusOf(handler), 'SUCCESS');
    await settleDown();
    assert.equal(calls, 1, 'a poll does not run onPaid while the lease holds');
  });

  it('runs onPaid again on a poll of a verified payment still owed it once its back-off passed, then never again', async () => {
    const payments = createMemoryPaymentStore();
    // The handler's clock is Date.now: the entry's back-off (dueAt) is put after it, then before it.
    await payments.insert(
      entry({ state: 'SUCCESS', gatewayCode: '00', fulfilAttempts: 1, dueAt: Date.now() + 60_000 }),
    );
    const paid: Payment[] = [];
    const handler = createStatusHandler({
      statusSecret: STATUS_SECRET,
      payments,
      gateway: { query: async () => PAID },
      onPaid: (payment) => void paid.push(payment),
    });
    assert.equal(await statusOf(handler), 'SUCCESS');
    await settleDown();
    assert.equal(paid.length, 0, 'not before its back-off');
    await payments.update({ ...(await payments.get(REFERENCE))!, dueAt: Date.now() - 1 });
    assert.equal(await statusOf(handler), 'SUCCESS');
    await settleDown();
    assert.equal(paid.length, 1);
    const stored = await payments.get(REFERENCE);
    assert.notEqual(stored?.fulfilledAt, undefined);
    assert.equal(stored?.dueAt, undefined);
    await statusOf(handler);
    await settleDown();
    assert.equal(paid.length, 1);
  });

  it('does not run onPaid from a poll without onPaid, nor while another caller’s lease holds', async () => {
    const payments = createMemoryPaymentStore();
    await payments.insert(
      entry({ state: 'SUCCESS', gatewayCode: '00', dueAt: 0, lease: { owner: 'another', until: Date.now() + 60_000 } }),
    );
    let calls = 0;
    const leased = createStatusHandler({
      statusSecret: STATUS_SECRET,
      payments,
      gateway: { query: async () => PAID },
      onPaid: () => void (calls += 1),
    });
    const readOnly = createStatusHandler({
      statusSecret: STATUS_SECRET,
      payments,
      gateway: { query: async () => PAID },
    });
    assert.equal(await statusOf(leased), 'SUCCESS');
    await payments.update({ ...(await payments.get(REFERENCE))!, lease: { owner: 'another', until: 0 } });
    assert.equal(await statusOf(readOnly), 'SUCCESS');
    await settleDown();
    assert.equal(calls, 0);
  });

  it('refuses a leaseMs that is not a positive number of milliseconds', () => {
    const payments = createMemoryPaymentStore();
    assert.throws(
      () =>
        createStatusHandler({
          statusSecret: STATUS_SECRET,
          payments,
          gateway: { query: async () => PAID },
          leaseMs: 0,
        }),
      /leaseMs/,
    );
  });
});
