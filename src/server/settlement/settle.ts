// Settling is one transition, whichever endpoint learns of it first (a webhook, a status
// re-query, the reconciler): the gateway's verified answer moves the ledger entry
// `PENDING → SUCCESS | FAILED` (or `FAILED → SUCCESS`, a late success) with one compare-and-set, and
// only the request whose write lands reports it and runs `onFailed`. A SUCCESS entry is owed
// fulfilment until `onPaid` returns (fulfil.ts, under a lease). A payment is paid only for the
// ledger's amount and currency. Also the settlement events, and their reporting with the gateway's
// text scrubbed (`scrubbedEmitter`).
import type { Gateway, QueryAnswer, QueryOutcome } from '../gateway/gateway.js';
import { withDeadline } from '../http/deadline.js';
import { createEmitter, errorName } from '../http/emitter.js';
import { fulfil, owesFulfilment, type FulfilEvent, type PaymentHook } from '../fulfilment/fulfil.js';
import { needsReview, type NeedsReviewEvent } from './review.js';
import { answerTarget, verifiedEntry } from '../ledger/moves.js';
import { writeMove } from '../ledger/write.js';
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
 * Moves `entry` as `answer` says (ledger/verified.ts), with one compare-and-set (ledger/write.ts);
 * re-reads and retries a write that lost to a mere check (or whose reply was lost). PENDING →
 * SUCCESS (or FAILED → SUCCESS, `late-success`) makes fulfilment owed, then runs it; an entry
 * already SUCCESS but unfulfilled is fulfilled again.
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
  const undecided = answerTarget(entry, answer) === 'mismatch' ? 'mismatch' : 'open';
  if (undecided === 'mismatch') {
    context.emit({
      type: 'amount-mismatch',
      paymentReference: reference,
      code: answer.code,
      expected: { amount: entry.amount, currency: entry.currency },
      received: { amount: answer.amount, currency: answer.currency },
    });
  }
  const written = await writeMove(context.payments, entry, (current) => verifiedEntry(current, answer, now()), {
    tries: MAX_ATTEMPTS,
    report: (error) =>
      context.emit({ type: 'internal-error', where: 'store', paymentReference: reference, detail: errorName(error) }),
    // A lost race matters only to a write that would settle the payment or mark it for review: a
    // mere record of this check (still PENDING) may lose to whoever wrote meanwhile.
    mustLand: (next, current) => next.state !== 'PENDING' || marked(current, next),
    // A store that threw without writing: asking again now would meet the same trouble.
    onThrow: 'give-up-if-unchanged',
  });
  switch (written.kind) {
    case 'missing':
    case 'unreadable':
      return { kind: 'missing' };
    case 'not-applicable':
      return { kind: 'already-settled', payment: await fulfilIfOwed(written.entry, context) };
    case 'gave-up':
    case 'refused': {
      const reason = written.kind === 'gave-up' && written.why === 'conflict' ? undecided : 'busy';
      return { kind: 'pending', reason, payment: written.entry };
    }
  }
  const { before, after } = written;
  if (marked(before, after)) context.emit(needsReview(after));
  if (after.state === 'PENDING') return { kind: 'pending', reason: undecided, payment: after };
  // Only the review was recorded on a settled entry.
  if (after.state === before.state) return { kind: 'already-settled', payment: await fulfilIfOwed(after, context) };
  return { kind: 'settled', payment: await afterMove(before, after, context) };
}

/** The move marks the entry for a person's review. */
function marked(before: Payment, after: Payment): boolean {
  return after.review !== undefined && after.review !== before.review;
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
