import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Gateway, QueryOutcome } from '../../src/server/gateway/gateway.js';
import { verifyAndSettle, type VerifyEvent } from '../../src/server/settlement/settle.js';
import { createMemoryPaymentStore } from '../../src/server/stores/memory.js';
import type { Payment } from '../../src/server/stores/types.js';

const REFERENCE = 'ORDER-2001';

function pending(changes: Partial<Payment> = {}): Payment {
  return {
    paymentReference: REFERENCE,
    paymentType: 'USSD',
    amount: '5000.00',
    currency: 'NGN',
    state: 'PENDING',
    version: 1,
    createdAt: 1,
    updatedAt: 1,
    ...changes,
  };
}

function answer(code: string, changes: Partial<Extract<QueryOutcome, { kind: 'answer' }>> = {}): QueryOutcome {
  const state = code === '00' ? 'SUCCESS' : code === 'S12' ? 'FAILED' : 'PENDING';
  return { kind: 'answer', state, code, amount: 5000, currency: 'NGN', message: undefined, ...changes };
}

/** A ledger holding one pending entry, a gateway answering `outcome`, and what the hooks and onEvent saw. */
async function setUp(outcome: () => QueryOutcome | Promise<QueryOutcome>) {
  const payments = createMemoryPaymentStore();
  await payments.insert(pending());
  const entry = (await payments.get(REFERENCE))!;
  const queried: string[] = [];
  const gateway: Pick<Gateway, 'query'> = {
    query: async (reference) => {
      queried.push(reference);
      return outcome();
    },
  };
  const paid: Payment[] = [];
  const failed: Payment[] = [];
  const events: VerifyEvent[] = [];
  const context = {
    payments,
    onPaid: (payment: Payment) => void paid.push(payment),
    onFailed: (payment: Payment) => void failed.push(payment),
    emit: (event: VerifyEvent) => void events.push(event),
  };
  return { payments, entry, gateway, queried, paid, failed, events, context };
}

describe('verifyAndSettle: query the gateway, then one compare-and-set', () => {
  it('settles a paid answer for the ledger amount, runs onPaid once, and reports verified then paid', async () => {
    const { payments, entry, gateway, queried, paid, failed, events, context } = await setUp(() => answer('00'));
    const result = await verifyAndSettle(entry, gateway, context);
    assert.equal(result.kind, 'settled');
    assert.deepEqual(queried, [REFERENCE]);
    assert.equal(paid.length, 1);
    assert.equal(failed.length, 0);
    assert.equal(paid[0]!.state, 'SUCCESS');
    assert.equal((await payments.get(REFERENCE))?.state, 'SUCCESS');
    assert.deepEqual(events, [
      { type: 'verified', paymentReference: REFERENCE, state: 'SUCCESS', code: '00' },
      { type: 'paid', paymentReference: REFERENCE, amount: '5000.00', currency: 'NGN' },
      { type: 'fulfilled', paymentReference: REFERENCE, attempts: 1 },
    ]);
  });

  it('settles a failed answer as FAILED and runs onFailed, never onPaid', async () => {
    const { payments, entry, gateway, paid, failed, events, context } = await setUp(() => answer('S12'));
    const result = await verifyAndSettle(entry, gateway, context);
    assert.equal(result.kind, 'settled');
    assert.equal(paid.length, 0);
    assert.equal(failed.length, 1);
    assert.equal((await payments.get(REFERENCE))?.state, 'FAILED');
    assert.deepEqual(
      events.map((event) => event.type),
      ['verified', 'failed'],
    );
  });

  it('leaves a pending answer PENDING (open), recording the check and running no hook', async () => {
    const { payments, entry, gateway, paid, failed, context } = await setUp(() => answer('S20'));
    const result = await verifyAndSettle(entry, gateway, { ...context, now: () => 42 });
    assert.deepEqual(result.kind === 'pending' && result.reason, 'open');
    assert.equal(paid.length + failed.length, 0);
    const stored = await payments.get(REFERENCE);
    assert.equal(stored?.state, 'PENDING');
    assert.equal(stored?.gatewayCode, 'S20');
    assert.equal(stored?.checkedAt, 42);
  });

  it('never pays an answer for another amount or currency, and reports the mismatch', async () => {
    for (const changes of [{ amount: 50 }, { currency: 'USD' }, { amount: undefined }]) {
      const { payments, entry, gateway, paid, events, context } = await setUp(() => answer('00', changes));
      const result = await verifyAndSettle(entry, gateway, context);
      assert.deepEqual(result.kind === 'pending' && result.reason, 'mismatch', JSON.stringify(changes));
      assert.equal(paid.length, 0);
      assert.equal((await payments.get(REFERENCE))?.state, 'PENDING');
      const mismatch = events.find((event) => event.type === 'amount-mismatch');
      assert.deepEqual(mismatch && mismatch.type === 'amount-mismatch' && mismatch.expected, {
        amount: '5000.00',
        currency: 'NGN',
      });
    }
  });

  it('leaves the ledger untouched when the query is unverified, throws or does not answer in time', async () => {
    const outcomes: [() => QueryOutcome | Promise<QueryOutcome>, string, number | undefined][] = [
      [() => ({ kind: 'unverified', reason: 'http-error', httpStatus: 502 }), 'http-error', 502],
      [() => Promise.reject(new Error('socket hang up')), 'unreadable', undefined],
      [() => new Promise<QueryOutcome>(() => {}), 'timeout', undefined],
    ];
    for (const [outcome, reason, httpStatus] of outcomes) {
      const { payments, entry, gateway, paid, failed, events, context } = await setUp(outcome);
      const result = await verifyAndSettle(entry, gateway, { ...context, queryTimeoutMs: 20 });
      assert.equal(result.kind, 'unverified', reason);
      assert.equal(paid.length + failed.length, 0);
      assert.deepEqual(await payments.get(REFERENCE), entry);
      assert.deepEqual(events, [
        { type: 'unverified', paymentReference: REFERENCE, reason, ...(httpStatus ? { httpStatus } : {}) },
      ]);
    }
  });

  it('runs no hook when it loses the compare-and-set to a settlement made meanwhile', async () => {
    const { payments, entry, gateway, paid, failed, events, context } = await setUp(() => answer('00'));
    // Another path (a webhook, another instance) settled and fulfilled the entry after this one was read.
    await payments.update({ ...entry, state: 'SUCCESS', gatewayCode: '00', updatedAt: 2, fulfilledAt: 2 });
    const result = await verifyAndSettle(entry, gateway, context);
    assert.equal(result.kind, 'already-settled');
    assert.equal(paid.length + failed.length, 0);
    assert.equal((await payments.get(REFERENCE))?.state, 'SUCCESS');
    assert.deepEqual(
      events.map((event) => event.type),
      ['verified'],
    );
  });

  it('lets exactly one of many concurrent verifications settle and run onPaid', async () => {
    const { entry, gateway, paid, context } = await setUp(() => answer('00'));
    const results = await Promise.all(Array.from({ length: 10 }, () => verifyAndSettle(entry, gateway, context)));
    assert.equal(paid.length, 1);
    assert.equal(results.filter((result) => result.kind === 'settled').length, 1);
    assert.equal(results.filter((result) => result.kind === 'already-settled').length, 9);
  });
});
