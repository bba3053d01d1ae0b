// Issue 34: an entry's life as a table, as test/node/flow.test.ts is for the screens. Each row is the
// entry before, the event, and the entry after (or `undefined`: the move does not apply, nothing is
// written), read off src/server/ledger/moves.ts with no store. Times are written out by hand from
// the schedule the docs give (re-queries 1, 2, 5, 10, 30 min, 1 h, 3 h, 24 h after creation; 1 h,
// 6 h, 24 h, 72 h after a failure; an unanswered query again after 1 min; a thrown onPaid after 10 s).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Payment } from '../../src/server/ledger/entry.js';
import { createdEntry, moveEntry, type EntryEvent } from '../../src/server/ledger/moves.js';
import type { QueryAnswer } from '../../src/server/gateway/types.js';

const T0 = 1_700_000_000_000;
const SECOND = 1_000;
const MIN = 60 * SECOND;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** A USSD entry for 5000 NGN, created at T0, started, due for its first re-query. */
function entry(changes: Partial<Payment> = {}): Payment {
  return {
    paymentReference: 'REF-1',
    paymentType: 'USSD',
    amount: '5000.00',
    currency: 'NGN',
    state: 'PENDING',
    version: 3,
    createdAt: T0,
    updatedAt: T0,
    initiation: 'started',
    dueAt: T0 + MIN,
    ...changes,
  };
}

/** `base` with `changes`, and the fields named in `drop` removed. */
function after(base: Payment, changes: Partial<Payment>, drop: (keyof Payment)[] = []): Payment {
  const next: Payment = { ...base, ...changes };
  for (const field of drop) delete next[field];
  return next;
}

function answer(state: Payment['state'], code: string, changes: Partial<QueryAnswer> = {}): QueryAnswer {
  return { kind: 'answer', state, code, amount: 5000, currency: 'NGN', message: undefined, ...changes };
}

type Row = [name: string, before: Payment, event: EntryEvent, expected: Payment | undefined];

const paid = answer('SUCCESS', '00');
const owed = entry({ state: 'SUCCESS', gatewayCode: '00', dueAt: T0 + 5 * MIN });
const leased = after(owed, { lease: { owner: 'me.1', until: T0 + 6 * MIN }, fulfilAttempts: 1, dueAt: T0 + 6 * MIN });
const review = { reason: 'amount-mismatch' as const, since: T0 + MIN, amountReceived: '4000' };
const failed = entry({ state: 'FAILED', gatewayCode: 'S12', failedAt: T0 + 2 * MIN, dueAt: T0 + 2 * MIN + HOUR });

const initiation: Row[] = [
  [
    'instructions given: started',
    entry({ initiation: 'asking' }),
    { type: 'initiation-answered', at: T0 + 2 * SECOND, reached: 'started', again: false },
    entry({ initiation: 'started', updatedAt: T0 + 2 * SECOND }),
  ],
  [
    'a refusal of the first ask: never started, off the sweep',
    entry({ initiation: 'asking' }),
    { type: 'initiation-answered', at: T0 + 2 * SECOND, reached: 'refused', again: false },
    after(entry(), { initiation: 'refused', updatedAt: T0 + 2 * SECOND }, ['dueAt']),
  ],
  [
    'a refusal of an ask that may have reached the gateway: unknown, for the query',
    entry({ initiation: 'asking' }),
    { type: 'initiation-answered', at: T0 + 2 * SECOND, reached: 'refused', again: true },
    entry({ initiation: 'unknown', updatedAt: T0 + 2 * SECOND }),
  ],
  [
    'no answer: unknown',
    entry({ initiation: 'asking' }),
    { type: 'initiation-answered', at: T0 + 2 * SECOND, reached: 'unknown', again: false },
    entry({ initiation: 'unknown', updatedAt: T0 + 2 * SECOND }),
  ],
  [
    'a refusal after unknown stays unknown: does not apply',
    entry({ initiation: 'unknown' }),
    { type: 'initiation-answered', at: T0 + 2 * SECOND, reached: 'refused', again: false },
    undefined,
  ],
  [
    'instructions once given stand',
    entry(),
    { type: 'initiation-answered', at: T0 + 2 * SECOND, reached: 'refused', again: true },
    undefined,
  ],
  [
    'a settled entry stands',
    entry({ state: 'SUCCESS', initiation: 'asking' }),
    { type: 'initiation-answered', at: T0 + 2 * SECOND, reached: 'started', again: false },
    undefined,
  ],
  [
    'a transfer account given again reopens a stale entry',
    after(entry({ paymentType: 'TRANSFER', openUntil: T0 + DAY, stale: true }), {}, ['dueAt']),
    { type: 'initiation-answered', at: T0 + 2 * DAY, reached: 'started', again: true, openUntil: T0 + 5 * DAY },
    after(entry({ paymentType: 'TRANSFER' }), {
      updatedAt: T0 + 2 * DAY,
      openUntil: T0 + 5 * DAY,
      dueAt: T0 + 2 * DAY + MIN,
    }),
  ],
  [
    'an account that closes earlier never moves openUntil back',
    entry({ paymentType: 'TRANSFER', openUntil: T0 + 5 * DAY }),
    { type: 'initiation-answered', at: T0 + 2 * DAY, reached: 'started', again: true, openUntil: T0 + 3 * DAY },
    undefined,
  ],
];

const settling: Row[] = [
  [
    'paid for the ledger amount: SUCCESS, fulfilment owed now',
    entry({ stale: true, unanswered: 2 }),
    { type: 'verified', at: T0 + 5 * MIN, answer: paid },
    after(entry(), {
      state: 'SUCCESS',
      checkedAt: T0 + 5 * MIN,
      gatewayCode: '00',
      updatedAt: T0 + 5 * MIN,
      dueAt: T0 + 5 * MIN,
    }),
  ],
  [
    'paid 5000.00 NGN written as 5000 and ngn is the same payment',
    entry(),
    { type: 'verified', at: T0 + 5 * MIN, answer: answer('SUCCESS', '00', { currency: 'ngn' }) },
    after(entry(), {
      state: 'SUCCESS',
      checkedAt: T0 + 5 * MIN,
      gatewayCode: '00',
      updatedAt: T0 + 5 * MIN,
      dueAt: T0 + 5 * MIN,
    }),
  ],
  [
    'a verified failure: FAILED, re-queried 1 h later',
    entry(),
    { type: 'verified', at: T0 + 2 * MIN, answer: answer('FAILED', 'S12') },
    after(failed, { checkedAt: T0 + 2 * MIN, updatedAt: T0 + 2 * MIN }),
  ],
  [
    'still pending: the check recorded, nothing else',
    entry(),
    { type: 'verified', at: T0 + 2 * MIN, answer: answer('PENDING', 'S20') },
    entry({ checkedAt: T0 + 2 * MIN, gatewayCode: 'S20' }),
  ],
  [
    'paid another amount: still PENDING, for review, with what was received',
    entry(),
    { type: 'verified', at: T0 + MIN, answer: answer('SUCCESS', '00', { amount: 4000 }) },
    entry({ checkedAt: T0 + MIN, gatewayCode: '00', review }),
  ],
  [
    'paid in another currency: for review',
    entry(),
    { type: 'verified', at: T0 + MIN, answer: answer('SUCCESS', '00', { currency: 'GHS' }) },
    entry({
      checkedAt: T0 + MIN,
      gatewayCode: '00',
      review: { reason: 'amount-mismatch', since: T0 + MIN, currencyReceived: 'GHS' },
    }),
  ],
  [
    'approved for part of the amount (SM_10): for review, never paid',
    entry(),
    { type: 'verified', at: T0 + MIN, answer: answer('SUCCESS', 'SM_10', { report: 'partial-amount' }) },
    entry({ checkedAt: T0 + MIN, gatewayCode: 'SM_10', review: { reason: 'amount-mismatch', since: T0 + MIN } }),
  ],
  [
    'the same mismatch again keeps its first review',
    entry({ review }),
    { type: 'verified', at: T0 + 9 * MIN, answer: answer('SUCCESS', '00', { amount: 4000 }) },
    entry({ review, checkedAt: T0 + 9 * MIN, gatewayCode: '00' }),
  ],
  [
    'paid in full in the end: the review is closed',
    entry({ review }),
    { type: 'verified', at: T0 + 9 * MIN, answer: paid },
    after(entry(), {
      state: 'SUCCESS',
      checkedAt: T0 + 9 * MIN,
      gatewayCode: '00',
      updatedAt: T0 + 9 * MIN,
      dueAt: T0 + 9 * MIN,
    }),
  ],
  [
    'FAILED then paid: a late success, SUCCESS and for review',
    failed,
    { type: 'verified', at: T0 + 3 * HOUR, answer: paid },
    after(failed, {
      state: 'SUCCESS',
      checkedAt: T0 + 3 * HOUR,
      gatewayCode: '00',
      updatedAt: T0 + 3 * HOUR,
      dueAt: T0 + 3 * HOUR,
      review: { reason: 'after-expiry', since: T0 + 3 * HOUR },
    }),
  ],
  [
    'FAILED and still failed: does not apply',
    failed,
    { type: 'verified', at: T0 + HOUR, answer: answer('FAILED', 'S12') },
    undefined,
  ],
  ['SUCCESS and paid again: does not apply', owed, { type: 'verified', at: T0 + HOUR, answer: paid }, undefined],
  [
    'SUCCESS and failed later: never FAILED',
    owed,
    { type: 'verified', at: T0 + HOUR, answer: answer('FAILED', 'S12') },
    undefined,
  ],
  [
    'SUCCESS, then a mismatch reported: only the review is recorded',
    owed,
    { type: 'verified', at: T0 + HOUR, answer: answer('SUCCESS', '00', { amount: 4000 }) },
    after(owed, { review: { ...review, since: T0 + HOUR } }),
  ],
  ['a query claimed', entry(), { type: 'query-claimed', at: T0 + 30 * SECOND }, entry({ checkedAt: T0 + 30 * SECOND })],
];

const schedule: Row[] = [
  [
    'answered at its first step: the second, 2 min after creation',
    entry(),
    { type: 'schedule-step', at: T0 + MIN, state: 'PENDING' },
    entry({ checks: 1, dueAt: T0 + 2 * MIN }),
  ],
  [
    'answered before its step was due (a notification): the step is not used up',
    entry({ checks: 2, dueAt: T0 + MIN }),
    { type: 'schedule-step', at: T0 + 3 * MIN, state: 'PENDING' },
    entry({ checks: 2, dueAt: T0 + 5 * MIN }),
  ],
  [
    'steps that passed while nobody swept are skipped',
    entry({ checks: 1, unanswered: 3 }),
    { type: 'schedule-step', at: T0 + 40 * MIN, state: 'PENDING' },
    entry({ checks: 2, dueAt: T0 + HOUR }),
  ],
  [
    'the last step answered pending: stale, off the sweep',
    entry({ checks: 7, dueAt: T0 + DAY }),
    { type: 'schedule-step', at: T0 + DAY, state: 'PENDING' },
    after(entry(), { checks: 8, stale: true }, ['dueAt']),
  ],
  [
    'a transfer account still open: asked daily',
    entry({ paymentType: 'TRANSFER', openUntil: T0 + 3 * DAY, checks: 7, dueAt: T0 + DAY }),
    { type: 'schedule-step', at: T0 + DAY, state: 'PENDING' },
    entry({ paymentType: 'TRANSFER', openUntil: T0 + 3 * DAY, checks: 8, dueAt: T0 + 2 * DAY }),
  ],
  [
    'FAILED and still failed: 6 h after the failure',
    failed,
    { type: 'schedule-step', at: T0 + 2 * MIN + HOUR, state: 'FAILED' },
    after(failed, { dueAt: T0 + 2 * MIN + 6 * HOUR }),
  ],
  [
    'FAILED past its last re-query: nothing more due',
    failed,
    { type: 'schedule-step', at: T0 + 2 * MIN + 72 * HOUR, state: 'FAILED' },
    after(failed, {}, ['dueAt']),
  ],
  [
    'settled since the sweep read it: not its to schedule',
    owed,
    { type: 'schedule-step', at: T0 + HOUR, state: 'PENDING' },
    undefined,
  ],
  [
    'no readable answer: the same step again after 1 min',
    entry({ checks: 2 }),
    { type: 'query-unanswered', at: T0 + 5 * MIN, state: 'PENDING' },
    entry({ checks: 2, unanswered: 1, dueAt: T0 + 6 * MIN }),
  ],
  [
    'no readable answer a third time: after 15 min',
    entry({ unanswered: 2 }),
    { type: 'query-unanswered', at: T0 + 5 * MIN, state: 'PENDING' },
    entry({ unanswered: 3, dueAt: T0 + 20 * MIN }),
  ],
  [
    'no answer for an entry settled meanwhile: does not apply',
    owed,
    { type: 'query-unanswered', at: T0, state: 'PENDING' },
    undefined,
  ],
  [
    'due for nothing: off the sweep',
    entry({ initiation: 'refused' }),
    { type: 'off-sweep' },
    after(entry({ initiation: 'refused' }), {}, ['dueAt']),
  ],
  ['already off the sweep: does not apply', after(entry(), {}, ['dueAt']), { type: 'off-sweep' }, undefined],
  [
    'a notification not verified now: due at once',
    entry({ dueAt: T0 + HOUR }),
    { type: 'marked-due', at: T0 + 10 * MIN },
    entry({ dueAt: T0 + 10 * MIN }),
  ],
  [
    'already due by then: does not apply',
    entry({ dueAt: T0 + MIN }),
    { type: 'marked-due', at: T0 + 10 * MIN },
    undefined,
  ],
];

const fulfilment: Row[] = [
  [
    'owed and free: the lease taken, one attempt more, due when it lapses',
    owed,
    { type: 'lease-taken', at: T0 + 5 * MIN, owner: 'me.1', until: T0 + 6 * MIN },
    leased,
  ],
  [
    'a live lease: does not apply',
    leased,
    { type: 'lease-taken', at: T0 + 5 * MIN, owner: 'you.1', until: T0 + 6 * MIN },
    undefined,
  ],
  [
    'a lapsed lease: taken over',
    leased,
    { type: 'lease-taken', at: T0 + 6 * MIN, owner: 'you.1', until: T0 + 7 * MIN },
    after(leased, { lease: { owner: 'you.1', until: T0 + 7 * MIN }, fulfilAttempts: 2, dueAt: T0 + 7 * MIN }),
  ],
  ['not paid: no lease', entry(), { type: 'lease-taken', at: T0, owner: 'me.1', until: T0 + MIN }, undefined],
  [
    'settled before fulfilment was recorded: owes nothing',
    after(owed, {}, ['dueAt']),
    { type: 'lease-taken', at: T0, owner: 'me.1', until: T0 + MIN },
    undefined,
  ],
  [
    'renewed by its owner',
    leased,
    { type: 'lease-renewed', owner: 'me.1', until: T0 + 8 * MIN },
    after(leased, { lease: { owner: 'me.1', until: T0 + 8 * MIN }, dueAt: T0 + 8 * MIN }),
  ],
  ["another's lease is not renewed", leased, { type: 'lease-renewed', owner: 'you.1', until: T0 + 8 * MIN }, undefined],
  [
    'onPaid threw: the lease dropped, due again 10 s later',
    leased,
    { type: 'lease-released', at: T0 + 5 * MIN + 20 * SECOND, owner: 'me.1' },
    after(leased, { dueAt: T0 + 5 * MIN + 30 * SECOND }, ['lease']),
  ],
  ["another's lease is not released", leased, { type: 'lease-released', at: T0 + 6 * MIN, owner: 'you.1' }, undefined],
  [
    'onPaid returned: fulfilled, no lease, nothing due',
    leased,
    { type: 'fulfilled', at: T0 + 5 * MIN + 3 * SECOND },
    after(leased, { fulfilledAt: T0 + 5 * MIN + 3 * SECOND }, ['lease', 'dueAt']),
  ],
  [
    'fulfilled already: does not apply',
    after(owed, { fulfilledAt: T0 }, ['dueAt']),
    { type: 'fulfilled', at: T0 + HOUR },
    undefined,
  ],
  [
    'fulfilled, then renewed by a late heartbeat: does not apply',
    after(leased, { fulfilledAt: T0 + 5 * MIN }),
    { type: 'lease-renewed', owner: 'me.1', until: T0 + 9 * MIN },
    undefined,
  ],
];

const person: Row[] = [
  [
    'a review resolved with a note',
    entry({ review }),
    { type: 'resolved', at: T0 + DAY, note: 'refunded' },
    entry({ updatedAt: T0 + DAY, resolved: { at: T0 + DAY, note: 'refunded' } }),
  ],
  [
    'a stale entry resolved',
    entry({ stale: true }),
    { type: 'resolved', at: T0 + DAY, note: '' },
    entry({ updatedAt: T0 + DAY, resolved: { at: T0 + DAY, note: '' } }),
  ],
  ['nothing to resolve: does not apply', entry(), { type: 'resolved', at: T0 + DAY, note: 'x' }, undefined],
  [
    'an owed onPaid made due now',
    after(leased, { dueAt: T0 + HOUR }, ['lease']),
    { type: 'retry-requested', at: T0 + 10 * MIN },
    after(leased, { dueAt: T0 + 10 * MIN, updatedAt: T0 + 10 * MIN }, ['lease']),
  ],
  ['onPaid running now: does not apply', leased, { type: 'retry-requested', at: T0 + 5 * MIN }, undefined],
  ['no onPaid owed: does not apply', entry(), { type: 'retry-requested', at: T0 }, undefined],
];

describe('an entry’s life, as a table (src/server/ledger/moves.ts)', () => {
  for (const [part, rows] of Object.entries({ initiation, settling, schedule, fulfilment, person })) {
    describe(part, () => {
      for (const [name, before, event, expected] of rows) {
        it(name, () => {
          const frozen = structuredClone(before);
          assert.deepEqual(moveEntry(before, event), expected);
          assert.deepEqual(before, frozen, 'a move never changes the entry it was given');
        });
      }
    });
  }

  describe('created', () => {
    it('is PENDING and asking, due for its first re-query 1 min after creation', () => {
      const made = createdEntry(
        { paymentReference: 'REF-9', paymentType: 'USSD', amount: '10.00', currency: 'NGN', idempotencyKey: null },
        T0,
      );
      assert.deepEqual(made, {
        paymentReference: 'REF-9',
        paymentType: 'USSD',
        amount: '10.00',
        currency: 'NGN',
        state: 'PENDING',
        version: 1,
        createdAt: T0,
        updatedAt: T0,
        initiation: 'asking',
        dueAt: T0 + MIN,
      });
    });

    it('keeps its Idempotency-Key, its customer, and when its transfer account closes', () => {
      const customer = { name: 'Ada', phone: '+2348000000000' };
      const made = createdEntry(
        {
          paymentReference: 'REF-9',
          paymentType: 'TRANSFER',
          amount: '10.00',
          currency: 'NGN',
          idempotencyKey: 'key-1',
          accountLifeMs: 3 * DAY,
          customer,
        },
        T0,
      );
      assert.equal(made.idempotencyKey, 'key-1');
      assert.equal(made.openUntil, T0 + 3 * DAY);
      assert.deepEqual(made.customer, customer);
    });
  });
});
