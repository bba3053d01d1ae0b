// What every PaymentStore promises, as one suite each store runs (memory, Redis, PostgreSQL): the
// handlers and the reconciler rely on exactly this, whichever store a merchant picks.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { HISTORY_LIMIT } from '../../src/server/ledger/history.js';
import type { LedgerQuery } from '../../src/server/ledger/queries.js';
import type { Payment, PaymentStore } from '../../src/server/stores/types.js';

export type StoreMaker = (options: { now: () => number }) => Promise<PaymentStore> | PaymentStore;

let counter = 0;

export function entry(overrides: Partial<Payment> = {}): Payment {
  counter += 1;
  return {
    paymentReference: `contract-${process.pid}-${counter}`,
    paymentType: 'USSD',
    amount: '5000.00',
    currency: 'NGN',
    state: 'PENDING',
    version: 1,
    createdAt: 1_000,
    updatedAt: 1_000,
    initiation: 'asking',
    ...overrides,
  };
}

export function paymentStoreContract(makeStore: StoreMaker): void {
  let time = 1_000_000;
  const clock = { now: () => time };

  it('inserts once per reference and once per Idempotency-Key, at version 1', async () => {
    const store = await makeStore(clock);
    const first = entry({ idempotencyKey: `key-${counter}-a`, version: 7 });
    assert.equal(await store.insert(first), true);
    assert.deepEqual(await store.get(first.paymentReference), { ...first, version: 1 });
    assert.equal(await store.insert({ ...first, amount: '1.00' }), false, 'same reference');
    const sameKey = entry({ idempotencyKey: first.idempotencyKey });
    assert.equal(await store.insert(sameKey), false, 'same key');
    assert.equal(await store.get(sameKey.paymentReference), undefined);
    assert.equal((await store.get(first.paymentReference))?.amount, '5000.00');
  });

  it('finds a payment by the Idempotency-Key that started it, and by no other', async () => {
    const store = await makeStore(clock);
    const payment = entry({ idempotencyKey: `key-${counter}-find` });
    await store.insert(payment);
    assert.equal(
      (await store.findByIdempotencyKey(payment.idempotencyKey!))?.paymentReference,
      payment.paymentReference,
    );
    assert.equal(await store.findByIdempotencyKey(`${payment.idempotencyKey}-other`), undefined);
  });

  it('updates only at the stored version (compare-and-set), keeping the key it was inserted with', async () => {
    const store = await makeStore(clock);
    const payment = entry({ idempotencyKey: `key-${counter}-cas` });
    await store.insert(payment);
    const stored = (await store.get(payment.paymentReference))!;
    assert.equal(await store.update({ ...stored, initiation: 'started', idempotencyKey: 'another-key-1' }), true);
    assert.equal(await store.update({ ...stored, initiation: 'unknown' }), false, 'a stale version loses');
    const now = (await store.get(payment.paymentReference))!;
    assert.equal(now.version, 2);
    assert.equal(now.initiation, 'started');
    assert.equal(now.idempotencyKey, payment.idempotencyKey);
    assert.equal((await store.findByIdempotencyKey(payment.idempotencyKey!))?.version, 2);
    assert.equal(await store.update(entry()), false, 'an entry that does not exist');
  });

  it('of two concurrent writers at one version, exactly one wins', async () => {
    const store = await makeStore(clock);
    const payment = entry();
    await store.insert(payment);
    const writes = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        store.update({ ...payment, gatewayCode: String(index), state: 'SUCCESS' }),
      ),
    );
    assert.equal(writes.filter(Boolean).length, 1);
  });

  it('keeps every field it was given, including the lease, the fulfilment and the review', async () => {
    const store = await makeStore(clock);
    const payment = entry({ dueAt: time + 5, checks: 2, stale: false, checkedAt: 99, gatewayCode: 'S20' });
    await store.insert(payment);
    const review = { reason: 'after-expiry' as const, since: time, amountReceived: '4500', currencyReceived: 'USD' };
    const leased: Payment = {
      ...payment,
      state: 'SUCCESS',
      lease: { owner: 'me', until: time + 60_000 },
      fulfilAttempts: 1,
      review,
    };
    assert.equal(await store.update(leased), true);
    assert.deepEqual(await store.get(payment.paymentReference), { ...leased, version: 2 });
    const fulfilled: Payment = { ...leased, version: 2, fulfilledAt: time, fulfilAttempts: 1 };
    delete fulfilled.lease;
    delete fulfilled.dueAt;
    assert.equal(await store.update(fulfilled), true);
    assert.deepEqual(await store.get(payment.paymentReference), { ...fulfilled, version: 3 });
  });

  it('hands each due entry to one sweeper, soonest first, and holds it for holdMs', async () => {
    const store = await makeStore(clock);
    time += 10_000_000;
    const late = entry({ dueAt: time - 10 });
    const early = entry({ dueAt: time - 500 });
    const future = entry({ dueAt: time + 1_000 });
    const nothingOwed = entry({ state: 'FAILED', initiation: 'started' });
    for (const payment of [late, early, future, nothingOwed]) await store.insert(payment);

    const [one, two] = await Promise.all([store.claimDue(time, 10, 30_000), store.claimDue(time, 10, 30_000)]);
    const mine = [...one, ...two].filter((payment) =>
      [late, early, future].some((p) => p.paymentReference === payment.paymentReference),
    );
    assert.deepEqual(
      mine.map((payment) => payment.paymentReference),
      [early.paymentReference, late.paymentReference],
      'each once, soonest first',
    );
    for (const claimed of mine) {
      assert.equal(claimed.dueAt, time + 30_000);
      assert.equal(claimed.version, 2);
      assert.deepEqual(await store.get(claimed.paymentReference), claimed);
    }
    const again = await store.claimDue(time + 29_999, 10, 30_000);
    assert.equal(
      again.some((payment) => payment.paymentReference === early.paymentReference),
      false,
      'still held',
    );
    const lapsed = await store.claimDue(time + 30_000, 100, 30_000);
    assert.equal(
      lapsed.some((payment) => payment.paymentReference === early.paymentReference),
      true,
      'due again once the hold lapsed',
    );
  });

  it('renews a lease by compare-and-set: claimDue leaves the entry alone until the renewed dueAt, a stale renewal loses', async () => {
    // What fulfilment's heartbeat does while onPaid runs: update with a later lease.until and dueAt.
    const store = await makeStore(clock);
    time += 10_000_000;
    const payment = entry({ state: 'SUCCESS', initiation: 'started', dueAt: time - 1 });
    await store.insert(payment);
    const leased: Payment = {
      ...payment,
      lease: { owner: 'a.1', until: time + 300 },
      fulfilAttempts: 1,
      dueAt: time + 300,
    };
    assert.equal(await store.update(leased), true);
    const renewed: Payment = { ...leased, version: 2, lease: { owner: 'a.1', until: time + 600 }, dueAt: time + 600 };
    assert.equal(await store.update(renewed), true);
    assert.equal(
      await store.update({ ...leased, lease: { owner: 'a.1', until: time + 900 } }),
      false,
      'a renewal from a stale read loses',
    );
    const mine = (claimed: Payment[]) =>
      claimed.some((claimedEntry) => claimedEntry.paymentReference === payment.paymentReference);
    assert.equal(mine(await store.claimDue(time + 599, 100, 1_000)), false, 'the renewed lease keeps sweepers off');
    const lapsed = await store.claimDue(time + 600, 100, 1_000);
    assert.equal(mine(lapsed), true, 'due once the renewed lease lapsed');
    assert.deepEqual(lapsed.find((claimedEntry) => claimedEntry.paymentReference === payment.paymentReference)?.lease, {
      owner: 'a.1',
      until: time + 600,
    });
  });

  it('takes at most limit entries per claim, and none once nothing is owed', async () => {
    const store = await makeStore(clock);
    time += 10_000_000;
    const owed = Array.from({ length: 5 }, (_, index) => entry({ dueAt: time - 100 + index }));
    for (const payment of owed) await store.insert(payment);
    const batch = await store.claimDue(time, 2, 1_000);
    assert.equal(batch.length, 2);
    const settled = { ...batch[0]!, state: 'FAILED' as const };
    delete settled.dueAt;
    assert.equal(await store.update(settled), true);
    const later = await store.claimDue(time + 5_000, 100, 1_000);
    assert.equal(
      later.some((payment) => payment.paymentReference === settled.paymentReference),
      false,
      'no dueAt: off the sweep',
    );
    assert.equal(
      later.filter((payment) => owed.some((p) => p.paymentReference === payment.paymentReference)).length,
      4,
    );
  });

  it("keeps a transfer account's openUntil through insert, update and claimDue, and an older entry without it as it was", async () => {
    const store = await makeStore(clock);
    const openUntil = time + 3 * 24 * 60 * 60 * 1000;
    const transfer = entry({ paymentType: 'TRANSFER', openUntil, dueAt: time });
    const older = entry({ paymentType: 'TRANSFER', dueAt: time });
    await store.insert(transfer);
    await store.insert(older);
    const claimed = await store.claimDue(time, 100, 1_000);
    const mine = (reference: string) => claimed.find((payment) => payment.paymentReference === reference);
    assert.equal(mine(transfer.paymentReference)?.openUntil, openUntil);
    assert.equal(mine(older.paymentReference)?.openUntil, undefined);
    assert.equal(await store.update({ ...mine(transfer.paymentReference)!, openUntil: openUntil + 1 }), true);
    assert.equal((await store.get(transfer.paymentReference))?.openUntil, openUntil + 1);
    assert.equal('openUntil' in (await store.get(older.paymentReference))!, false);
  });

  it('markDue makes an entry due by then for the next claim, once, and a write from before it loses', async () => {
    // What the webhook does with a notification it could not verify now (issue 35, finding 1).
    const store = await makeStore(clock);
    assert.equal(typeof store.markDue, 'function', 'every store of ours has markDue');
    time += 10_000_000;
    const scheduled = entry({ initiation: 'started', dueAt: time + 60_000 });
    const stale = entry({ initiation: 'started', stale: true, checks: 8 });
    const soon = entry({ initiation: 'started', dueAt: time - 5 });
    for (const payment of [scheduled, stale, soon]) await store.insert(payment);
    const before = (await store.get(scheduled.paymentReference))!;

    assert.equal(await store.markDue!(scheduled.paymentReference, time), true);
    assert.equal(await store.markDue!(stale.paymentReference, time), true, 'no dueAt: due now');
    assert.equal(await store.markDue!(soon.paymentReference, time), false, 'already due: left alone');
    assert.equal(await store.markDue!(scheduled.paymentReference, time + 10), false, 'marked once');
    assert.equal(await store.markDue!(entry().paymentReference, time), false, 'absent');
    assert.deepEqual(await store.get(scheduled.paymentReference), { ...before, dueAt: time, version: 2 });
    assert.equal((await store.get(soon.paymentReference))?.version, 1);
    assert.equal(await store.update({ ...before, checkedAt: time }), false, 'a write from before the mark loses');

    const mine = [scheduled, stale, soon].map((payment) => payment.paymentReference);
    const claimed = (await store.claimDue(time, 100, 1_000)).filter((payment) =>
      mine.includes(payment.paymentReference),
    );
    assert.deepEqual(
      claimed.map((payment) => payment.paymentReference).sort(),
      [...mine].sort(),
      'all three taken by the next sweep',
    );
  });

  it('returns copies: changing what it returned changes nothing stored', async () => {
    const store = await makeStore(clock);
    const payment = entry();
    await store.insert(payment);
    const read = (await store.get(payment.paymentReference))!;
    read.amount = '1.00';
    payment.amount = '2.00';
    assert.equal((await store.get(payment.paymentReference))!.amount, '5000.00');
  });

  it('keeps each entry’s history in the order written, the newest HISTORY_LIMIT events, and none for an unknown reference', async () => {
    const store = await makeStore(clock);
    assert.ok(store.appendHistory && store.history, 'the store keeps a history');
    const payment = entry();
    await store.insert(payment);
    await store.appendHistory(payment.paymentReference, { at: 1, what: 'created', detail: '5000.00 NGN' });
    await store.appendHistory(payment.paymentReference, { at: 2, what: 'resolved', detail: 'refunded', by: 'person' });
    assert.deepEqual(await store.history(payment.paymentReference), [
      { at: 1, what: 'created', detail: '5000.00 NGN' },
      { at: 2, what: 'resolved', detail: 'refunded', by: 'person' },
    ]);
    for (let at = 3; at < HISTORY_LIMIT + 10; at += 1)
      await store.appendHistory(payment.paymentReference, { at, what: 'query-answered' });
    const kept = await store.history(payment.paymentReference);
    assert.equal(kept.length, HISTORY_LIMIT);
    assert.deepEqual([kept[0]!.at, kept.at(-1)!.at], [10, HISTORY_LIMIT + 9], 'the oldest dropped');
    const unknown = `${payment.paymentReference}-unknown`;
    await store.appendHistory(unknown, { at: 1, what: 'created' });
    assert.deepEqual(await store.history(unknown), []);
    await store.insert(entry({ paymentReference: unknown }));
    assert.deepEqual(await store.history(unknown), [], 'nothing kept for it before it existed');
  });

  it('lists entries newest first by state, creation time, needing a person, and a search by part of a phone, e-mail, name or reference', async () => {
    const store = await makeStore(clock);
    assert.ok(store.list, 'the store lists its entries');
    const run = `list-${process.pid}-${++counter}`;
    const mine = (payments: Payment[]) =>
      payments.filter((payment) => payment.paymentReference.startsWith(run)).map((payment) => payment.paymentReference);
    const customer = { name: 'Adaeze Okafor', phone: '+234 803 555 0199', email: 'ada@shop.example' };
    const made = [
      entry({ paymentReference: `${run}-paid`, state: 'SUCCESS', createdAt: 10, fulfilledAt: 11 }),
      entry({ paymentReference: `${run}-owed`, state: 'SUCCESS', createdAt: 20, fulfilAttempts: 2, dueAt: 99 }),
      entry({
        paymentReference: `${run}-review`,
        createdAt: 30,
        review: { reason: 'amount-mismatch', since: 31, amountReceived: '4000.00' },
      }),
      entry({ paymentReference: `${run}-stale`, createdAt: 40, stale: true, customer }),
      entry({
        paymentReference: `${run}-failed`,
        state: 'FAILED',
        createdAt: 50,
        customer: { name: 'Bola', phone: '08031112222' },
      }),
    ];
    for (const payment of made) await store.insert(payment);
    const list = async (query: LedgerQuery) => mine(await store.list!({ limit: 10_000, ...query }));
    assert.deepEqual(await list({}), [`${run}-failed`, `${run}-stale`, `${run}-review`, `${run}-owed`, `${run}-paid`]);
    assert.deepEqual(await list({ needsAttention: true }), [`${run}-stale`, `${run}-review`, `${run}-owed`]);
    assert.deepEqual(await list({ state: 'SUCCESS' }), [`${run}-owed`, `${run}-paid`]);
    assert.deepEqual(await list({ since: 20, until: 40 }), [`${run}-review`, `${run}-owed`]);
    assert.deepEqual(
      await list({ search: '0803 555' }),
      [`${run}-stale`],
      'a phone number in part, written the local way',
    );
    assert.deepEqual(await list({ search: 'ADA@' }), [`${run}-stale`]);
    assert.deepEqual(await list({ search: 'bola' }), [`${run}-failed`]);
    assert.deepEqual(await list({ search: `${run}-rev` }), [`${run}-review`]);
    assert.deepEqual(await list({ search: "x' OR 1=1 --" }), [], 'a search is a value, never SQL');
    assert.equal((await store.list!({ limit: 1, search: run })).length, 1, 'at most limit');
    const [stale] = await store.list!({ search: `${run}-stale` });
    assert.deepEqual(stale?.customer, customer);
  });
}
