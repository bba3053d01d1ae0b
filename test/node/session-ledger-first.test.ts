/**
 * Issue 15 item 1, "Ledger first": the session handler records the payment before it asks the
 * gateway. A ledger that cannot be written starts nothing (503, the gateway never asked), so no
 * customer pays for a payment the merchant's ledger does not know; the gateway's answer then moves
 * the entry (started, refused, unknown), and the reconciler's first look is due a minute in.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSandboxGateway, SANDBOX_ACCESS_TOKEN, SANDBOX_PUBLIC_KEY } from '../../src/sandbox/index.js';
import {
  createMemoryPaymentStore,
  createSessionHandler,
  type Payment,
  type PaymentStore,
} from '../../src/server/internal.js';
import { nextCheckAt, RECHECK_SCHEDULE_MS } from '../../src/server/ledger/schedule.js';
import {
  answerSuccess,
  makeHandler,
  newKey,
  ORDER,
  post,
  postWithoutKey,
  readError,
  USSD_REQUEST,
  type Responder,
} from './server-fixtures.js';

const MINUTE = 60_000;

/** A ledger whose `insert` throws while `down` is true, as Redis does during a blip. */
function flakyLedger(): { payments: PaymentStore; setDown(down: boolean): void } {
  const inner = createMemoryPaymentStore();
  let down = true;
  const payments: PaymentStore = {
    ...inner,
    insert: (payment) => (down ? Promise.reject(new Error('ECONNRESET: the ledger went away')) : inner.insert(payment)),
  };
  return { payments, setDown: (value) => void (down = value) };
}

describe('createSessionHandler: ledger first (issue 15 item 1)', () => {
  it('answers 503 server_busy when the ledger cannot be written, never asks the gateway, and the retry then goes through', async () => {
    const sandbox = createSandboxGateway();
    let initiations = 0;
    const ledger = flakyLedger();
    const events: unknown[] = [];
    const handler = createSessionHandler({
      baseUrl: 'https://sandbox.test',
      publicKey: SANDBOX_PUBLIC_KEY,
      accessToken: SANDBOX_ACCESS_TOKEN,
      order: () => ({ amount: '2500.00', callbackUrl: ORDER.callbackUrl, redirectUrl: ORDER.redirectUrl }),
      payments: ledger.payments,
      fetch: (input, init) => {
        if (String(input).endsWith('/payments/initiates')) initiations += 1;
        return sandbox.fetch(input, init);
      },
      onEvent: (event) => void events.push(event),
    });
    const key = { 'idempotency-key': newKey() };

    const refused = await handler(post(USSD_REQUEST, key));
    assert.equal(refused.headers.get('retry-after'), '5');
    const error = await readError(refused, 503, 'server_busy');
    assert.equal(error.retryable, true, 'Try again can help');
    assert.equal(initiations, 0, 'no payment the ledger does not know was started');
    assert.ok(
      events.some((event) => (event as { where?: string }).where === 'ledger'),
      'the ledger failure is reported',
    );

    ledger.setDown(false);
    const retried = await handler(post(USSD_REQUEST, key));
    assert.equal(retried.status, 200, await retried.clone().text());
    const { order } = (await retried.json()) as { order: { paymentReference: string } };
    assert.equal(initiations, 1);
    assert.equal((await ledger.payments.get(order.paymentReference))?.initiation, 'started');
  });

  it('writes the entry, asking and due, before the gateway is asked', async () => {
    const payments = createMemoryPaymentStore();
    let seenDuringCall: Payment | undefined;
    const respond: Responder = async (call, signal) => {
      seenDuringCall = await payments.get(String(call.body.paymentReference));
      return answerSuccess(call, signal);
    };
    const { handler } = makeHandler({ payments }, respond);
    const request = post(USSD_REQUEST);
    const key = request.headers.get('idempotency-key');
    assert.equal((await handler(request)).status, 200);
    assert.ok(seenDuringCall, 'the ledger held the payment while the gateway was being asked');
    assert.equal(seenDuringCall.state, 'PENDING');
    assert.equal(seenDuringCall.initiation, 'asking');
    assert.equal(seenDuringCall.idempotencyKey, key);
    assert.equal(seenDuringCall.amount, ORDER.amount);
    assert.equal(seenDuringCall.dueAt, seenDuringCall.createdAt + MINUTE, 'due for the reconciler’s first look');
  });

  it('moves the entry by the answer: instructions started and due, a decline refused and off the sweep, a time-out unknown and due', async () => {
    const hang: Responder = (_call, signal) =>
      new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
    const cases: { respond: Responder; status: number; initiation: string; due: boolean }[] = [
      { respond: answerSuccess, status: 200, initiation: 'started', due: true },
      {
        respond: () => Response.json({ status: 'FAILED', message: 'Insufficient funds' }, { status: 402 }),
        status: 402,
        initiation: 'refused',
        due: false,
      },
      { respond: hang, status: 504, initiation: 'unknown', due: true },
    ];
    for (const { respond, status, initiation, due } of cases) {
      const payments = createMemoryPaymentStore();
      const { handler } = makeHandler({ payments, timeoutMs: 50 }, respond);
      assert.equal((await handler(post(USSD_REQUEST))).status, status);
      const entry = await payments.get(ORDER.paymentReference);
      assert.equal(entry?.state, 'PENDING', initiation);
      assert.equal(entry?.initiation, initiation);
      assert.equal(entry?.dueAt !== undefined, due, `${initiation}: dueAt ${entry?.dueAt}`);
    }
  });

  it('records a request without an Idempotency-Key too, without a key', async () => {
    const payments = createMemoryPaymentStore();
    const { handler } = makeHandler({ payments });
    assert.equal((await handler(postWithoutKey(USSD_REQUEST))).status, 200);
    const entry = await payments.get(ORDER.paymentReference);
    assert.equal(entry?.initiation, 'started');
    assert.equal('idempotencyKey' in entry!, false);
  });

  it('still gives the customer the instructions when the answer cannot be recorded; the entry stays asking and due', async () => {
    const inner = createMemoryPaymentStore();
    const payments: PaymentStore = { ...inner, update: () => Promise.reject(new Error('ledger down after the call')) };
    const { handler, events } = makeHandler({ payments });
    assert.equal((await handler(post(USSD_REQUEST))).status, 200);
    const entry = await inner.get(ORDER.paymentReference);
    assert.equal(entry?.initiation, 'asking');
    assert.ok(entry?.dueAt !== undefined, 'the reconciler queries it');
    assert.ok(events.some((event) => event.type === 'internal-error' && event.where === 'ledger'));
    assert.ok(events.some((event) => event.type === 'initiated'));
  });

  it('retries the compare-and-set after a lost race, on the entry as it now is', async () => {
    const inner = createMemoryPaymentStore();
    let raced = false;
    const payments: PaymentStore = {
      ...inner,
      async update(payment) {
        if (!raced) {
          raced = true;
          // Another caller (the webhook, the reconciler) moved the entry meanwhile.
          const current = (await inner.get(payment.paymentReference))!;
          await inner.update({ ...current, checks: 1 });
        }
        return inner.update(payment);
      },
    };
    const { handler } = makeHandler({ payments });
    assert.equal((await handler(post(USSD_REQUEST))).status, 200);
    const entry = await inner.get(ORDER.paymentReference);
    assert.equal(entry?.initiation, 'started');
    assert.equal(entry?.checks, 1, 'the other caller’s change stands');
  });
});

describe('the reconciler’s schedule (src/server/ledger/schedule.ts)', () => {
  it('checks 1, 2, 5, 10 and 30 minutes, 1, 3 and 24 hours after creation, then no more', () => {
    const created = 1_000;
    const steps = RECHECK_SCHEDULE_MS.map((_step, checks) => (nextCheckAt(created, checks)! - created) / MINUTE);
    assert.deepEqual(steps, [1, 2, 5, 10, 30, 60, 180, 1440]);
    assert.equal(nextCheckAt(created, RECHECK_SCHEDULE_MS.length), undefined);
  });
});
