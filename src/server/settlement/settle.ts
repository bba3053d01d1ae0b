// Settling is one transition, whichever endpoint learns of it first (a webhook, a status
// re-query, the reconciler): the gateway's verified answer moves the ledger entry
// `PENDING → SUCCESS | FAILED` (or `FAILED → SUCCESS`, a late success) with one compare-and-set, and
// only the request whose write lands reports it and runs `onFailed`. A SUCCESS entry is owed
// fulfilment until `onPaid` returns (fulfil.ts, under a lease). A payment is paid only for the
// ledger's amount and currency. Also the settlement events, and their reporting with the gateway's
// text scrubbed (`scrubbedEmitter`).
import { sameAmount, sameCurrency } from './amounts.js';
import type { Gateway, QueryAnswer, QueryOutcome } from '../gateway/gateway.js';
import { withDeadline } from '../http/deadline.js';
import { createEmitter, errorName } from '../http/emitter.js';
import { fulfil, owesFulfilment, type FulfilEvent, type PaymentHook } from '../fulfilment/fulfil.js';
import { needsReview, reviewFor, type NeedsReviewEvent } from './review.js';
import { nextCheckAfterFailure } from '../reconciler/schedule.js';
import type { Payment, PaymentStore } from '../stores/types.js';

export type { PaidContext, PaymentHook } from '../fulfilment/fulfil.js';

/** What `onEvent` hears from a settlement: references, codes and amounts, never a token, key or customer detail. */
export type SettleEvent =
  | { type: 'paid'; paymentReference: string; amount: string; currency: string }
  | { type: 'failed'; paymentReference: string; code: string }
  /** A FAILED payment the gateway later confirmed paid for the ledger's amount and currency: it is SUCCESS now, and `onPaid` runs. */
  | { type: 'late-success'; paymentReference: string; amount: string; currency: string; previousCode: string }
  | {
      type: 'amount-mismatch';
      paymentReference: string;
      code: string;
      expected: { amount: string; currency: string };
      received: { amount: number | undefined; currency: string | undefined };
    }
  | NeedsReviewEvent
  | { type: 'code-reported'; paymentReference: string; code: string; report: NonNullable<QueryAnswer['report']> }
  | { type: 'internal-error'; where: 'onFailed'; paymentReference: string; detail: string }
  | FulfilEvent;

type SettleContext = {
  payments: PaymentStore;
  onPaid: PaymentHook;
  /** Advisory: runs once per move to FAILED, by the caller whose write landed; a throw is reported, never retried. */
  onFailed?: PaymentHook;
  emit: (event: SettleEvent) => void;
  now?: () => number;
  /** How long a lease on `onPaid` lives unrenewed (renewed while `onPaid` runs); default 60 s. */
  leaseMs?: number;
  /** How long `onPaid` is waited for before it is given up (`onPaid-timeout`); default 30 s. */
  onPaidTimeoutMs?: number;
  /**
   * Wait at most this long for fulfilment, then answer with the entry still owed while it goes on
   * (0: a status poll tells the customer SUCCESS at once; the webhook answers within the gateway's
   * deadline). Default: wait until `onPaid` returned or was given up.
   */
  fulfilWaitMs?: number;
};

/**
 * `payment` is the entry as last known: `state === 'SUCCESS' && fulfilledAt === undefined` means
 * verified but not yet fulfilled (`onPaid` threw, is running elsewhere, or runs in the background).
 */
type SettleResult =
  /** This call's write settled the payment (or turned FAILED into SUCCESS), and ran fulfilment or `onFailed`. */
  | { kind: 'settled'; payment: Payment }
  /** Settled before (by another request, instance or path); a SUCCESS entry still unfulfilled was fulfilled again. */
  | { kind: 'already-settled'; payment: Payment }
  /**
   * Still PENDING: `open`, the gateway has not decided; `mismatch`, it answered for another amount or
   * currency (or `SM_10`), which asking again will not change; `busy`, the ledger could not be
   * written (it threw, or kept changing under this request), so asking again later may settle it.
   */
  | { kind: 'pending'; reason: 'open' | 'mismatch' | 'busy'; payment: Payment }
  /** The entry disappeared from the ledger meanwhile. */
  | { kind: 'missing' };

/**
 * What `onEvent` hears when an endpoint asks the gateway about a payment and settles it: the
 * gateway's verdict, then the settlement's events.
 */
export type VerifyEvent =
  | { type: 'verified'; paymentReference: string; state: Payment['state']; code: string }
  /**
   * The query got no readable answer (or none in time): the entry stays as it was. The webhook
   * answers 503 so the gateway delivers again; the status handler asks again next interval.
   */
  | { type: 'unverified'; paymentReference: string; reason: string; httpStatus?: number }
  | SettleEvent;

export type VerifyContext = SettleContext & {
  emit: (event: VerifyEvent) => void;
  /** Give up on the query after this long (it then counts as unverified); without it, wait for the gateway's own time-out. */
  queryTimeoutMs?: number;
};

export type VerifyResult = SettleResult | { kind: 'unverified'; reason: string };

/**
 * Asks the gateway what became of `entry` (never trusting whoever told us to look), then settles it
 * through {@link settlePayment}. An unreadable or late answer leaves the ledger untouched.
 */
export async function verifyAndSettle(
  entry: Payment,
  gateway: Pick<Gateway, 'query'>,
  context: VerifyContext,
): Promise<VerifyResult> {
  const reference = entry.paymentReference;
  const outcome = await queryGateway(gateway, reference, context.queryTimeoutMs);
  if (outcome.kind !== 'answer') {
    context.emit({
      type: 'unverified',
      paymentReference: reference,
      reason: outcome.reason,
      ...(outcome.httpStatus ? { httpStatus: outcome.httpStatus } : {}),
    });
    return { kind: 'unverified', reason: outcome.reason };
  }
  context.emit({ type: 'verified', paymentReference: reference, state: outcome.state, code: outcome.code });
  return settlePayment(entry, outcome, context);
}

/** The gateway's answer, or `timeout` once `timeoutMs` passed, even from a `query` that ignores its signal. */
function queryGateway(
  gateway: Pick<Gateway, 'query'>,
  reference: string,
  timeoutMs: number | undefined,
): Promise<QueryOutcome> {
  const ask = async (signal?: AbortSignal): Promise<QueryOutcome> => {
    try {
      return await (signal ? gateway.query(reference, { signal }) : gateway.query(reference));
    } catch {
      return { kind: 'unverified', reason: 'unreadable' };
    }
  };
  if (timeoutMs === undefined) return ask();
  return withDeadline<QueryOutcome>(
    timeoutMs,
    (flag) => ask(flag.signal),
    () => ({ kind: 'unverified', reason: 'timeout' }),
  );
}

/** A busy entry is re-read this often before giving up; giving up leaves it as it was for the next try. */
const MAX_ATTEMPTS = 8;

/**
 * Moves `entry` as `answer` says, with one compare-and-set; re-reads and retries a write that lost
 * to a mere check (or whose reply was lost). PENDING → SUCCESS (or FAILED → SUCCESS, `late-success`)
 * makes fulfilment owed, then runs it; an entry already SUCCESS but unfulfilled is fulfilled again.
 * Nothing but a verified failure makes an entry FAILED.
 */
export async function settlePayment(
  entry: Payment,
  answer: QueryAnswer,
  context: SettleContext,
): Promise<SettleResult> {
  const now = context.now ?? Date.now;
  const reference = entry.paymentReference;
  if (answer.report)
    context.emit({ type: 'code-reported', paymentReference: reference, code: answer.code, report: answer.report });

  const target = targetState(entry, answer);
  if (target === 'mismatch') {
    context.emit({
      type: 'amount-mismatch',
      paymentReference: reference,
      code: answer.code,
      expected: { amount: entry.amount, currency: entry.currency },
      received: { amount: answer.amount, currency: answer.currency },
    });
  }

  const unsettled = (reason: 'open' | 'mismatch' | 'busy', payment: Payment): SettleResult => ({
    kind: 'pending',
    reason,
    payment,
  });
  const undecided = target === 'mismatch' ? 'mismatch' : 'open';
  let current = entry;
  for (let attempt = 1; ; attempt += 1) {
    const next = movedEntry(current, target, answer, now());
    if (!next) return { kind: 'already-settled', payment: await fulfilIfOwed(current, context) };
    const marked = next.review !== undefined && next.review !== current.review;
    let written: boolean;
    let lostReply = false;
    try {
      written = await context.payments.update(next);
    } catch (error) {
      context.emit({ type: 'internal-error', where: 'store', paymentReference: reference, detail: errorName(error) });
      written = false;
      lostReply = true;
    }
    if (written) {
      const stored = { ...next, version: current.version + 1 };
      if (marked) context.emit(needsReview(stored));
      if (stored.state === 'PENDING') return unsettled(undecided, stored);
      // Only the review was recorded on a settled entry.
      if (stored.state === current.state)
        return { kind: 'already-settled', payment: await fulfilIfOwed(stored, context) };
      return { kind: 'settled', payment: await afterMove(current, stored, context) };
    }
    // A lost race matters only to a write that would settle the payment or mark it for review: a
    // mere record of this check (still PENDING) may lose to whoever wrote meanwhile.
    if (next.state === 'PENDING' && !marked) return unsettled(lostReply ? 'busy' : undecided, current);
    if (attempt === MAX_ATTEMPTS) return unsettled('busy', current);
    let reread: Payment | undefined;
    try {
      reread = await context.payments.get(reference);
    } catch (error) {
      context.emit({ type: 'internal-error', where: 'store', paymentReference: reference, detail: errorName(error) });
      return unsettled('busy', current);
    }
    if (!reread) return { kind: 'missing' };
    // A store that threw without writing: asking again now would meet the same trouble.
    if (lostReply && reread.version === current.version) return unsettled('busy', current);
    current = reread;
  }
}

/**
 * The entry as `target` moves it, or undefined when no write is due: a settled entry stays as it
 * is, but for FAILED → SUCCESS on a verified payment for the ledger's amount and currency, and for
 * a review it does not have yet.
 */
function movedEntry(
  current: Payment,
  target: ReturnType<typeof targetState>,
  answer: QueryAnswer,
  time: number,
): Payment | undefined {
  const lateSuccess = current.state === 'FAILED' && target === 'SUCCESS';
  const review = reviewFor(
    current,
    target === 'mismatch' ? 'mismatch' : lateSuccess ? 'late' : undefined,
    answer,
    time,
  );
  if (current.state !== 'PENDING' && !lateSuccess) return review && { ...current, review };
  const next: Payment = {
    ...current,
    state: target === 'mismatch' ? 'PENDING' : target,
    checkedAt: time,
    gatewayCode: answer.code,
  };
  if (review) next.review = review;
  // Paid in full in the end: nothing left for a person to look at.
  if (next.state === 'SUCCESS' && !lateSuccess) delete next.review;
  if (next.state === 'PENDING') return next;
  next.updatedAt = time;
  delete next.stale;
  delete next.unanswered;
  // Moving to SUCCESS makes fulfilment owed at once; FAILED owes the sparse re-queries that find a
  // late payment whose webhook was lost.
  if (next.state === 'SUCCESS') {
    next.dueAt = time;
  } else {
    next.failedAt = time;
    next.dueAt = nextCheckAfterFailure(time, time);
  }
  return next;
}

/** Reports the move from `previous` to `stored`, then runs `onPaid` (fulfilment) or `onFailed`. */
async function afterMove(previous: Payment, stored: Payment, context: SettleContext): Promise<Payment> {
  const { paymentReference, amount, currency } = stored;
  if (stored.state === 'FAILED') {
    context.emit({ type: 'failed', paymentReference, code: stored.gatewayCode ?? '' });
    await runOnFailed(stored, context);
    return stored;
  }
  if (previous.state === 'FAILED')
    context.emit({
      type: 'late-success',
      paymentReference,
      amount,
      currency,
      previousCode: previous.gatewayCode ?? '',
    });
  else context.emit({ type: 'paid', paymentReference, amount, currency });
  return fulfilIfOwed(stored, context);
}

/** Fulfilment for a verified, unfulfilled entry (awaited, or started in the background); `entry` otherwise. */
async function fulfilIfOwed(entry: Payment, context: SettleContext): Promise<Payment> {
  if (!owesFulfilment(entry)) return entry;
  const running = fulfil(entry, context).then((result) => result.payment);
  const waitMs = context.fulfilWaitMs;
  if (waitMs === undefined) return running;
  running.catch(() => {}); // fulfil reports its own failures; nothing waits for it past `waitMs`
  return waitMs > 0
    ? withDeadline(
        waitMs,
        () => running,
        () => entry,
      )
    : entry;
}

/** The ledger state the answer earns; a paid answer for another amount or currency earns none. */
function targetState(entry: Payment, answer: QueryAnswer): 'PENDING' | 'SUCCESS' | 'FAILED' | 'mismatch' {
  if (answer.report === 'partial-amount') return 'mismatch';
  if (answer.state !== 'SUCCESS') return answer.state;
  return sameCurrency(entry.currency, answer.currency) && sameAmount(entry.amount, answer.amount)
    ? 'SUCCESS'
    : 'mismatch';
}

/** Advisory: it runs once per move to FAILED, by the caller whose write landed, and its throw is only reported. */
async function runOnFailed(payment: Payment, context: SettleContext): Promise<void> {
  try {
    await context.onFailed?.(structuredClone(payment), {});
  } catch (error) {
    context.emit({
      type: 'internal-error',
      where: 'onFailed',
      paymentReference: payment.paymentReference,
      detail: errorName(error),
    });
  }
}
