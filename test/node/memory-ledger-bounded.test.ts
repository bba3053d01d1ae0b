/**
 * Issue 15 item 7: the memory ledger stays bounded and never forgets a payment still owed work.
 * Everything goes through the PaymentStore interface (the session's insert, the settlement's and the
 * fulfilment's updates, the reconciler's claimDue); how many entries it holds is read from what it
 * still answers, never from heap figures (`npm run bench` has those).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryPaymentStore } from '../../src/server/stores/memory.js';
import type { Payment, PaymentStore } from '../../src/server/stores/types.js';

const MINUTE = 60_000;

function clock(start = Date.UTC(2025, 0, 1)) {
  let time = start;
  return { now: () => time, advance: (ms: number) => void (time += ms) };
}

const reference = (n: number) => `bounded-${n}`;
const keyOf = (n: number) => `key-bounded-${n}`;

/** A payment as the session records it before asking the gateway: PENDING, due for its first check. */
function started(n: number, time: number): Payment {
  return {
    paymentReference: reference(n),
    paymentType: 'TRANSFER',
    amount: '5000.00',
    currency: 'NGN',
    state: 'PENDING',
    version: 1,
    createdAt: time,
    updatedAt: time,
    idempotencyKey: keyOf(n),
    initiation: 'started',
    dueAt: time + MINUTE,
  };
}

/** The webhook's settlement, then the fulfilment's mark once onPaid returned: nothing owed on it after. */
async function settleAndFulfil(store: PaymentStore, n: number, time: number): Promise<void> {
  const entry = (await store.get(reference(n)))!;
  const paid: Payment = {
    ...entry,
    state: 'SUCCESS',
    updatedAt: time,
    checkedAt: time,
    gatewayCode: '00',
    dueAt: time,
    fulfilAttempts: 0,
  };
  assert.equal(await store.update(paid), true);
  const fulfilled: Payment = { ...paid, version: paid.version + 1, fulfilledAt: time, fulfilAttempts: 1 };
  delete fulfilled.dueAt;
  assert.equal(await store.update(fulfilled), true);
}

async function kept(store: PaymentStore, from: number, to: number): Promise<number[]> {
  const present: number[] = [];
  for (let n = from; n < to; n += 1) if (await store.get(reference(n))) present.push(n);
  return present;
}

describe('the memory ledger, bounded (issue 15 item 7)', () => {
  it('keeps at most maxEntries through 200,000 payments: the oldest finished are dropped, every owed one stays', async () => {
    const maxEntries = 1_000;
    const time = clock();
    const store = createMemoryPaymentStore({ maxEntries, now: time.now });
    const total = 200_000;
    // Every 1,000th payment is never paid: still PENDING, owed its reconciler checks.
    const owed = (n: number) => n % 1_000 === 0;
    for (let n = 0; n < total; n += 1) {
      time.advance(1);
      assert.equal(await store.insert(started(n, time.now())), true, `insert ${n}`);
      if (!owed(n)) await settleAndFulfil(store, n, time.now());
    }

    const present = await kept(store, 0, total);
    assert.equal(present.length, maxEntries);
    const owedNumbers = Array.from({ length: total / 1_000 }, (_, i) => i * 1_000);
    assert.deepEqual(present.filter(owed), owedNumbers, 'every payment still owed work is kept');
    // The finished ones kept are the latest to finish, none older.
    const finishedKept = present.filter((n) => !owed(n));
    const firstKept = finishedKept[0]!;
    assert.equal(finishedKept.length, maxEntries - owedNumbers.length);
    assert.deepEqual(
      finishedKept,
      Array.from({ length: total - firstKept }, (_, i) => firstKept + i).filter((n) => !owed(n)),
    );

    // The reconciler sees exactly the owed ones, and the key index only what is kept.
    const due = await store.claimDue(time.now() + MINUTE, total, MINUTE);
    assert.deepEqual(due.map((payment) => payment.paymentReference).sort(), owedNumbers.map(reference).sort());
    assert.equal((await store.findByIdempotencyKey(keyOf(1)))?.paymentReference, undefined);
    assert.equal((await store.findByIdempotencyKey(keyOf(2_000)))?.paymentReference, reference(2_000));
    assert.equal((await store.findByIdempotencyKey(keyOf(total - 1)))?.paymentReference, reference(total - 1));
    // A dropped entry's key is released with it (the index does not grow with every payment ever made).
    assert.equal(await store.insert({ ...started(total, time.now()), idempotencyKey: keyOf(1) }), true);
  });

  it('throws a clear error on an insert beyond maxEntries when every entry is owed work, forgetting none', async () => {
    const time = clock();
    const store = createMemoryPaymentStore({ maxEntries: 100, now: time.now });
    for (let n = 0; n < 100; n += 1) assert.equal(await store.insert(started(n, time.now())), true);

    assert.throws(() => store.insert(started(100, time.now())), {
      message: 'the memory ledger holds 100 payments still owed work (maxEntries)',
    });
    assert.deepEqual(
      await kept(store, 0, 101),
      Array.from({ length: 100 }, (_, n) => n),
    );

    // Once one is settled and fulfilled, it makes the room.
    await settleAndFulfil(store, 42, time.now());
    assert.equal(await store.insert(started(100, time.now())), true);
    assert.equal(await store.get(reference(42)), undefined);
    assert.equal((await kept(store, 0, 101)).length, 100);
  });

  it('sweeps finished entries once ttlMs has passed since they finished, never owed ones (injected clock)', async () => {
    const ttlMs = 60 * MINUTE;
    const time = clock();
    const store = createMemoryPaymentStore({ maxEntries: 10_000, ttlMs, now: time.now });
    for (let n = 0; n < 500; n += 1) {
      await store.insert(started(n, time.now()));
      if (n % 50 !== 0) await settleAndFulfil(store, n, time.now());
    }
    time.advance(ttlMs / 2);
    for (let n = 500; n < 600; n += 1) {
      await store.insert(started(n, time.now()));
      await settleAndFulfil(store, n, time.now());
    }
    assert.equal((await kept(store, 0, 600)).length, 600, 'nothing expired yet');

    time.advance(ttlMs / 2);
    await store.insert(started(600, time.now()));
    const present = await kept(store, 0, 601);
    const owedEarly = Array.from({ length: 10 }, (_, i) => i * 50);
    const later = Array.from({ length: 101 }, (_, i) => 500 + i);
    assert.deepEqual(
      present,
      [...owedEarly, ...later],
      'the first 490 finished expired; the owed ten and the later ones stay',
    );
    assert.equal(await store.findByIdempotencyKey(keyOf(1)), undefined);
  });
});
