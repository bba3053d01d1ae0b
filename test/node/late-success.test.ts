// Issue 15, defect 4: FAILED is not final when the gateway later confirms the payment paid (a transfer
// after the account's time-out). A verified `00` for the ledger's amount and currency turns it
// SUCCESS, reported as `late-success`, and `onPaid` runs; any other answer leaves it FAILED.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Gateway, QueryOutcome } from '../../src/server/gateway/gateway.js';
import { verifyAndSettle, type VerifyEvent } from '../../src/server/settlement/settle.js';
import { createMemoryPaymentStore } from '../../src/server/stores/memory.js';
import type { Payment } from '../../src/server/stores/types.js';

const REFERENCE = 'ORDER-4001';

function answer(code: string, changes: Partial<Extract<QueryOutcome, { kind: 'answer' }>> = {}): QueryOutcome {
  const state = code === '00' ? 'SUCCESS' : code === 'S12' ? 'FAILED' : 'PENDING';
  return { kind: 'answer', state, code, amount: 5000, currency: 'NGN', message: undefined, ...changes };
}

/** A payment the gateway first said failed (settled FAILED through the transition), then `later`. */
async function failedThen(later: QueryOutcome) {
  const payments = createMemoryPaymentStore();
  await payments.insert({
    paymentReference: REFERENCE,
    paymentType: 'TRANSFER',
    amount: '5000.00',
    currency: 'NGN',
    state: 'PENDING',
    version: 1,
    createdAt: 1,
    updatedAt: 1,
  });
  let outcome = answer('S12');
  const gateway: Pick<Gateway, 'query'> = { query: async () => outcome };
  const [paid, failed, events]: [Payment[], Payment[], VerifyEvent[]] = [[], [], []];
  const record = (list: Payment[]) => (payment: Payment) => void list.push(payment);
  const context = {
    payments,
    onPaid: record(paid),
    onFailed: record(failed),
    emit: (event: VerifyEvent) => void events.push(event),
  };
  await verifyAndSettle((await payments.get(REFERENCE))!, gateway, context);
  assert.equal((await payments.get(REFERENCE))?.state, 'FAILED');
  assert.equal(failed.length, 1);
  outcome = later;
  events.length = 0;
  const result = await verifyAndSettle((await payments.get(REFERENCE))!, gateway, context);
  return {
    payments,
    paid,
    failed,
    events,
    result,
    verifyAgain: async () => verifyAndSettle((await payments.get(REFERENCE))!, gateway, context),
  };
}

describe('a FAILED payment the gateway later confirms paid', () => {
  it('becomes SUCCESS for the ledger amount, is reported as late-success, and runs onPaid once', async () => {
    const { payments, paid, failed, events, result, verifyAgain } = await failedThen(answer('00'));
    assert.equal(result.kind, 'settled');
    const stored = await payments.get(REFERENCE);
    assert.equal(stored?.state, 'SUCCESS');
    assert.equal(stored?.gatewayCode, '00');
    assert.notEqual(stored?.fulfilledAt, undefined);
    assert.equal(paid.length, 1);
    assert.equal(failed.length, 1);
    assert.deepEqual(events, [
      { type: 'verified', paymentReference: REFERENCE, state: 'SUCCESS', code: '00' },
      { type: 'needs-review', paymentReference: REFERENCE, state: 'SUCCESS', reason: 'after-expiry' },
      { type: 'late-success', paymentReference: REFERENCE, amount: '5000.00', currency: 'NGN', previousCode: 'S12' },
      { type: 'fulfilled', paymentReference: REFERENCE, attempts: 1 },
    ]);
    await verifyAgain();
    assert.equal(paid.length, 1, 'onPaid never runs again');
  });

  it('stays FAILED, reporting amount-mismatch and marked for review, when the gateway confirms another amount or currency', async () => {
    for (const changes of [{ amount: 50 }, { currency: 'USD' }]) {
      const { payments, paid, events, result } = await failedThen(answer('00', changes));
      assert.equal(result.kind, 'already-settled', JSON.stringify(changes));
      assert.equal((await payments.get(REFERENCE))?.state, 'FAILED');
      assert.equal(paid.length, 0);
      assert.deepEqual(
        events.map((event) => event.type),
        ['verified', 'amount-mismatch', 'needs-review'],
      );
      assert.equal((await payments.get(REFERENCE))?.review?.reason, 'amount-mismatch');
    }
  });

  it('stays FAILED, and onFailed does not run again, when the gateway still says failed or pending', async () => {
    for (const code of ['S12', 'S20']) {
      const { payments, paid, failed, result } = await failedThen(answer(code));
      assert.equal(result.kind, 'already-settled', code);
      assert.equal((await payments.get(REFERENCE))?.state, 'FAILED');
      assert.equal(paid.length + failed.length, 1);
    }
  });
});
