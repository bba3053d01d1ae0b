// An entry's life as pure moves, as element/flow.ts is the customer's screens: every change of every
// field of a ledger entry is a function from the entry and an event to the entry after it, with no
// store and no I/O. A move that does not apply to the entry as it stands gives undefined, and no
// write is made. write.ts writes a move with compare-and-set; test/node/ledger-entry.test.ts is
// their table.
//
//   created: PENDING, asking ─initiation-answered─▶ started | refused (off the sweep) | unknown
//      │   while PENDING or FAILED: query-claimed, schedule-step (at its end: stale),
//      │   query-unanswered, marked-due, off-sweep
//      ├─verified─▶ SUCCESS, owed ─lease-taken─▶ leased ─fulfilled─▶ fulfilled
//      │               ▲                 │ lease-renewed; lease-released: owed again after a back-off
//      └─verified─▶ FAILED ─verified, paid: a late success, for review
//   a person's: resolved (a review, stale), retry-requested (an owed onPaid due now)
import type { QueryAnswer } from '../gateway/types.js';
import { fulfilmentFree, owesFulfilment, type Initiation, type Payment, type PaymentState } from './entry.js';
import { fulfilRetryAt, nextCheckAfterFailure, nextCheckAt, unansweredRetryAt } from './schedule.js';
import { verifiedEntry } from './verified.js';

export { answerTarget, verifiedEntry } from './verified.js';

/** What moves an entry; `at` is when, ms since the epoch (by the ledger's clock for leases). */
export type EntryEvent =
  /** The gateway's answer to the initiation (`reached`); `again`, it may have been asked before. */
  | { type: 'initiation-answered'; at: number; reached: Initiation; again: boolean; openUntil?: number | undefined }
  /** This interval's gateway query claimed by a webhook or a status poll. */
  | { type: 'query-claimed'; at: number }
  /** The gateway's verified answer about the payment. */
  | { type: 'verified'; at: number; answer: QueryAnswer }
  /** The reconciler's query of an entry in `state` was answered and left it there: its next step. */
  | { type: 'schedule-step'; at: number; state: PaymentState }
  /** The reconciler's query of an entry in `state` got no readable answer: the same step after a back-off. */
  | { type: 'query-unanswered'; at: number; state: PaymentState }
  /** Due for nothing the reconciler does: off the sweep. */
  | { type: 'off-sweep' }
  /** A notification that could not be verified now: due for the reconciler's next sweep. */
  | { type: 'marked-due'; at: number }
  | { type: 'lease-taken'; at: number; owner: string; until: number }
  | { type: 'lease-renewed'; owner: string; until: number }
  /** `onPaid` ended without returning: the lease dropped, owed again after the back-off. */
  | { type: 'lease-released'; at: number; owner: string }
  /** `onPaid` returned. */
  | { type: 'fulfilled'; at: number }
  /** A person closed its review or stale state. */
  | { type: 'resolved'; at: number; note: string }
  /** A person made its owed `onPaid` due now. */
  | { type: 'retry-requested'; at: number };

/** The entry after `event`, or undefined when the event does not apply to it. */
export function moveEntry(entry: Payment, event: EntryEvent): Payment | undefined {
  switch (event.type) {
    case 'initiation-answered':
      return initiationAnswered(entry, event.reached, event.again, event.at, event.openUntil);
    case 'query-claimed':
      return { ...entry, checkedAt: event.at };
    case 'verified':
      return verifiedEntry(entry, event.answer, event.at);
    case 'schedule-step':
      return entry.state === event.state ? scheduleStep(entry, event.at) : undefined;
    case 'query-unanswered':
      return entry.state === event.state ? queryUnanswered(entry, event.at) : undefined;
    case 'off-sweep':
      return offSweep(entry);
    case 'marked-due':
      return entry.dueAt !== undefined && entry.dueAt <= event.at ? undefined : { ...entry, dueAt: event.at };
    case 'lease-taken':
      return leaseTaken(entry, event.owner, event.until, event.at);
    case 'lease-renewed':
      return leaseRenewed(entry, event.owner, event.until);
    case 'lease-released':
      return leaseReleased(entry, event.owner, event.at);
    case 'fulfilled':
      return fulfilled(entry, event.at);
    case 'resolved':
      return resolved(entry, event.note, event.at);
    case 'retry-requested':
      return retryRequested(entry, event.at);
  }
}

/** What a new entry is made of: the order as charged, and what the session knew of the attempt. */
export type NewEntry = Pick<Payment, 'paymentReference' | 'paymentType' | 'amount' | 'currency' | 'customer'> & {
  idempotencyKey: string | null;
  /** TRANSFER: how long the gateway keeps the account open (`walletDaysActive`); absent for USSD. */
  accountLifeMs?: number | undefined;
};

/** Recorded before the gateway is asked: PENDING, `asking`, due for the reconciler's first look. */
export function createdEntry(order: NewEntry, time: number): Payment {
  const { accountLifeMs, customer } = order;
  const openUntil = accountLifeMs === undefined ? undefined : time + accountLifeMs;
  return {
    paymentReference: order.paymentReference,
    paymentType: order.paymentType,
    amount: order.amount,
    currency: order.currency,
    state: 'PENDING',
    version: 1,
    createdAt: time,
    updatedAt: time,
    ...(order.idempotencyKey === null ? {} : { idempotencyKey: order.idempotencyKey }),
    initiation: 'asking',
    // The reconciler's first look, should nothing else settle it.
    dueAt: nextCheckAt(time, 0),
    ...(openUntil === undefined ? {} : { openUntil }),
    ...(customer ? { customer } : {}),
  };
}

/**
 * Only forward: a settled entry and instructions once given stand. A refusal after an ask that may
 * have reached the gateway (`again`, or an entry already `unknown`) leaves it unknown, for the query
 * to decide; a refusal of the first ask takes it off the reconciler's sweep. An account the gateway
 * gave in this answer (open until `openUntil`) moves the entry's `openUntil` later, never earlier,
 * and puts an entry whose schedule had ended (`stale`) back on the sweep.
 */
function initiationAnswered(
  entry: Payment,
  reached: Initiation,
  again: boolean,
  time: number,
  openUntil: number | undefined,
): Payment | undefined {
  const from = entry.initiation ?? 'started';
  if (entry.state !== 'PENDING' || from === 'refused') return undefined;
  const to = from === 'started' ? from : reached === 'refused' && (again || from !== 'asking') ? 'unknown' : reached;
  const reopened = reached === 'started' && openUntil !== undefined && openUntil > (entry.openUntil ?? 0);
  if (to === from && !reopened) return undefined;
  const next: Payment = { ...entry, updatedAt: time };
  if (to !== from) next.initiation = to;
  if (reopened) {
    next.openUntil = openUntil;
    if (next.dueAt === undefined) {
      next.dueAt = nextCheckAt(time, 0);
      delete next.stale;
    }
  }
  if (to === 'refused') delete next.dueAt;
  return next;
}

/**
 * After an answered query: the next step of its schedule (PENDING: from its creation, daily while
 * its account is open, then the late steps, then `stale`; FAILED: 1 h, 6 h, 24 h, 72 h after the
 * failure, then nothing).
 */
function scheduleStep(current: Payment, time: number): Payment {
  const next: Payment = { ...current };
  delete next.unanswered;
  if (current.state === 'FAILED') {
    const at = nextCheckAfterFailure(current.failedAt ?? current.updatedAt, time);
    if (at === undefined) delete next.dueAt;
    else next.dueAt = at;
    return next;
  }
  // Asked before its step was due (a notification the webhook could not verify made it due): the
  // step is not used up, so notifications cannot hurry a payment to `stale`.
  const owed = nextCheckAt(current.createdAt, current.checks ?? 0);
  if (owed !== undefined && owed > time) {
    next.dueAt = owed;
    return next;
  }
  const checks = (current.checks ?? 0) + 1;
  next.checks = checks;
  // Steps whose time already passed (the reconciler was not running) are skipped, not made up.
  let step = checks;
  let at = nextCheckAt(current.createdAt, step, current.openUntil);
  while (at !== undefined && at <= time) at = nextCheckAt(current.createdAt, ++step, current.openUntil);
  if (at !== undefined) {
    next.dueAt = at;
  } else {
    delete next.dueAt;
    next.stale = true;
  }
  return next;
}

/** No readable answer: the same step again after a back-off; it never uses up a step. */
function queryUnanswered(current: Payment, time: number): Payment {
  const unanswered = (current.unanswered ?? 0) + 1;
  return { ...current, unanswered, dueAt: unansweredRetryAt(time, unanswered) };
}

function offSweep(entry: Payment): Payment | undefined {
  if (entry.dueAt === undefined) return undefined;
  const next = { ...entry };
  delete next.dueAt;
  return next;
}

/** `dueAt: until`: should its process die in `onPaid`, the lapsed lease is swept by the reconciler. */
function leaseTaken(entry: Payment, owner: string, until: number, time: number): Payment | undefined {
  if (!fulfilmentFree(entry, time)) return undefined;
  return { ...entry, lease: { owner, until }, fulfilAttempts: (entry.fulfilAttempts ?? 0) + 1, dueAt: until };
}

/** Only `owner`'s lease on an entry not yet fulfilled is renewed. */
function leaseRenewed(entry: Payment, owner: string, until: number): Payment | undefined {
  if (entry.lease?.owner !== owner || entry.fulfilledAt !== undefined) return undefined;
  return { ...entry, lease: { owner, until }, dueAt: until };
}

/** Someone else holds it now (`owner`'s lapsed) or it is done: theirs to record. */
function leaseReleased(entry: Payment, owner: string, time: number): Payment | undefined {
  if (entry.lease?.owner !== owner || !owesFulfilment(entry)) return undefined;
  const next: Payment = { ...entry, dueAt: fulfilRetryAt(time, entry.fulfilAttempts ?? 1) };
  delete next.lease;
  return next;
}

/**
 * `onPaid` returned: `fulfilledAt`, no lease, nothing due. Recorded even when the lease lapsed
 * meanwhile: `onPaid` did return, and it must not run again.
 */
function fulfilled(entry: Payment, time: number): Payment | undefined {
  if (entry.fulfilledAt !== undefined) return undefined;
  const next: Payment = { ...entry, fulfilledAt: time };
  delete next.lease;
  delete next.dueAt;
  return next;
}

/** Closes the entry's review or stale state, with a person's note; nothing to close, nothing done. */
function resolved(entry: Payment, note: string, time: number): Payment | undefined {
  if (!entry.review && !entry.stale) return undefined;
  const next: Payment = { ...entry, updatedAt: time, resolved: { at: time, note } };
  delete next.review;
  delete next.stale;
  return next;
}

/** Its owed `onPaid` due now, unless none is owed or it is running (a live lease). */
function retryRequested(entry: Payment, time: number): Payment | undefined {
  if (!owesFulfilment(entry) || (entry.lease && entry.lease.until > time)) return undefined;
  return { ...entry, updatedAt: time, dueAt: time };
}
