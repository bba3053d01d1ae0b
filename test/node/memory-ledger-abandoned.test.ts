// Issue 24, defect 6: 100,000 anonymous sessions filled the in-memory ledger with unpaid PENDING
// entries that never counted as finished, and a full ledger refused every customer (503) until a
// restart. Now an unpaid entry past its re-query schedule (24 h) and its status token's life (24 h)
// may be dropped to make room, each drop reported to `onEvent` (`ledger-evicted`); and a handler
// with no `beforeInitiate` rate limit says so once (`warning`, `no-rate-limit`).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryPaymentStore, type Payment, type SessionEvent } from '../../src/server/internal.js';
import type { MemoryLedgerEvent } from '../../src/server/stores/memory.js';
import { nextCheckAt } from '../../src/server/ledger/schedule.js';
import { makeHandler, ORDER, post, readError, USSD_REQUEST } from './server-fixtures.js';

const T0 = 1_800_000_000_000;
const HOUR = 60 * 60 * 1000;
const SESSIONS = 100_000;

/** An anonymous session as the session handler records it: PENDING, started at the gateway, due for its first check. */
function anonymousSession(n: number, time: number): Payment {
  return {
    paymentReference: `pw-anon-${n}`,
    paymentType: 'USSD',
    amount: '800.00',
    currency: 'NGN',
    state: 'PENDING',
    version: 1,
    createdAt: time,
    updatedAt: time,
    idempotencyKey: `key-anon-${n}`,
    initiation: 'started',
    dueAt: nextCheckAt(time, 0)!,
  };
}

describe('the in-memory ledger after 100,000 anonymous sessions (issue 24, defect 6)', () => {
  it('refuses while they may still be paid, then makes room by dropping the abandoned ones, each reported', async () => {
    const clock = { time: T0 };
    const evicted: MemoryLedgerEvent[] = [];
    const payments = createMemoryPaymentStore({ now: () => clock.time, onEvent: (event) => void evicted.push(event) });
    // What 100,000 scripted sessions leave in the default-sized ledger (the session handler's writes,
    // made directly: 100,000 requests through the handler take minutes on a shared machine).
    for (let n = 0; n < SESSIONS; n += 1) assert.ok(await payments.insert(anonymousSession(n, T0)));
    const { handler } = makeHandler({
      payments,
      now: () => clock.time,
      order: () => ({ ...ORDER, paymentReference: undefined }),
    });

    clock.time = T0 + 23 * HOUR; // the entries may still be paid and polled: nothing is dropped
    await readError(await handler(post(USSD_REQUEST)), 503, 'server_busy');
    assert.equal(evicted.length, 0);

    clock.time = T0 + 24 * HOUR + 1; // past the schedule's last step and the status tokens' life
    const customers = await Promise.all(Array.from({ length: 1_000 }, () => handler(post(USSD_REQUEST))));
    assert.ok(
      customers.every((answer) => answer.status === 200),
      'new customers pay again',
    );
    assert.equal(evicted.length, 1_000, 'one reported drop per entry made room for');
    assert.deepEqual(evicted[0], {
      type: 'ledger-evicted',
      paymentReference: 'pw-anon-0',
      state: 'PENDING',
      createdAt: T0,
    });
    assert.ok(
      evicted.every((event, n) => event.paymentReference === `pw-anon-${n}`),
      'the oldest first',
    );
  });

  it('never drops a paid entry, one still polled, or one whose query is retried for want of an answer', async () => {
    const clock = { time: T0 };
    const payments = createMemoryPaymentStore({ maxEntries: 3, now: () => clock.time });
    await payments.insert({ ...anonymousSession(1, T0), state: 'SUCCESS', dueAt: T0 }); // paid, onPaid owed
    await payments.insert({ ...anonymousSession(2, T0), unanswered: 3 }); // the gateway has not answered yet
    await payments.insert(anonymousSession(3, T0 + 10 * HOUR)); // its token still lives
    clock.time = T0 + 30 * HOUR;
    await assert.rejects(async () => payments.insert(anonymousSession(4, clock.time)), /maxEntries/);
    clock.time = T0 + 34 * HOUR + 1;
    assert.ok(await payments.insert(anonymousSession(4, clock.time)));
    assert.equal(await payments.get('pw-anon-3'), undefined);
    assert.ok(await payments.get('pw-anon-1'));
    assert.ok(await payments.get('pw-anon-2'));
  });

  it('the session handler warns once when no beforeInitiate limits payments', async () => {
    const { handler, events } = makeHandler({ order: () => ({ ...ORDER, paymentReference: undefined }) });
    for (let i = 0; i < 3; i += 1) assert.equal((await handler(post(USSD_REQUEST))).status, 200);
    const warnings = events.filter(
      (event): event is Extract<SessionEvent, { type: 'warning' }> => event.type === 'warning',
    );
    assert.deepEqual(
      warnings.map((event) => event.code),
      ['no-rate-limit'],
    );
    assert.match(warnings[0]!.message, /beforeInitiate/);
    const limited = makeHandler({ order: () => ({ ...ORDER, paymentReference: undefined }), beforeInitiate: () => {} });
    await limited.handler(post(USSD_REQUEST));
    assert.equal(limited.events.filter((event) => event.type === 'warning').length, 0);
  });
});
