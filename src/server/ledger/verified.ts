// The settling move: the gateway's verified answer about a payment moves its entry
// `PENDING → SUCCESS | FAILED` (or `FAILED → SUCCESS`, a late success), or marks it for a person's
// review (another amount or currency, or paid after it had failed). Pure: settlement/settle.ts
// writes it with the one compare-and-set (write.ts) and runs what follows.
import { AMOUNT } from '../../contract/rules.js';
import type { QueryAnswer } from '../gateway/types.js';
import { sameAmount, sameCurrency } from './amounts.js';
import type { Payment, PaymentReview } from './entry.js';
import { nextCheckAfterFailure } from './schedule.js';

/** The ledger state the answer earns; a paid answer for another amount or currency earns none (`mismatch`). */
export type AnswerTarget = 'PENDING' | 'SUCCESS' | 'FAILED' | 'mismatch';

export function answerTarget(entry: Payment, answer: QueryAnswer): AnswerTarget {
  if (answer.report === 'partial-amount') return 'mismatch';
  if (answer.state !== 'SUCCESS') return answer.state;
  return sameCurrency(entry.currency, answer.currency) && sameAmount(entry.amount, answer.amount)
    ? 'SUCCESS'
    : 'mismatch';
}

/**
 * The entry as the verified `answer` moves it at `time`, or undefined when no write is due: a
 * settled entry stays as it is, but for FAILED → SUCCESS on a verified payment for the ledger's
 * amount and currency, and for a review it does not have yet. Nothing but a verified failure makes
 * an entry FAILED.
 */
export function verifiedEntry(current: Payment, answer: QueryAnswer, time: number): Payment | undefined {
  const target = answerTarget(current, answer);
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

/**
 * The review a verified answer calls for, when the entry lacks it: `mismatch`, a paid answer for
 * another amount or currency (with what was received, when the gateway said and it differs from
 * the ledger's); `late`, FAILED → SUCCESS. Undefined when there is none, or the entry has it already.
 */
function reviewFor(
  current: Payment,
  outcome: 'mismatch' | 'late' | undefined,
  answer: QueryAnswer,
  time: number,
): PaymentReview | undefined {
  if (!outcome) return undefined;
  const review: PaymentReview =
    outcome === 'late' ? { reason: 'after-expiry', since: time } : mismatch(current, answer, time);
  const known = current.review;
  const same =
    known?.reason === review.reason &&
    known.amountReceived === review.amountReceived &&
    known.currencyReceived === review.currencyReceived;
  return same ? undefined : review;
}

/**
 * Recorded and answered only in the status contract's shapes (a figure, a currency code), never as
 * whatever text the gateway sent.
 */
function mismatch(current: Payment, answer: QueryAnswer, time: number): PaymentReview {
  const figure = answer.amount === undefined ? '' : String(answer.amount);
  // Both are decimals of at most two places here, which compare exactly as numbers.
  const amount = AMOUNT.test(figure) && Number(figure) !== Number(current.amount) ? figure : undefined;
  const code = answer.currency?.trim().toUpperCase() ?? '';
  const currency = /^[A-Z]{3}$/.test(code) && code !== current.currency.trim().toUpperCase() ? code : undefined;
  return {
    reason: 'amount-mismatch',
    since: time,
    ...(amount === undefined ? {} : { amountReceived: amount }),
    ...(currency === undefined ? {} : { currencyReceived: currency }),
  };
}
