// What a person at the shop must look at, which no automatic step settles: a payment the gateway
// reported for another amount or currency, or one it confirmed after it had said it failed or
// expired. The ledger entry keeps it (`Payment.review`, never expired), the status answer says it
// (`reason`, `amountReceived`), and `onEvent` hears `needs-review` once per reason.
import type { QueryAnswer } from '../gateway/gateway.js';
import { AMOUNT } from '../../contract/rules.js';
import type { Payment, PaymentReview } from '../stores/types.js';

/** Once per reason, when the entry is first marked for a person's review. */
export type NeedsReviewEvent = { type: 'needs-review'; paymentReference: string; state: Payment['state'] } & Omit<
  PaymentReview,
  'since'
>;

/**
 * The review a verified answer calls for, when the entry lacks it: `mismatch`, a paid answer for
 * another amount or currency (with what was received, when the gateway said and it differs from
 * the ledger's); `late`, FAILED → SUCCESS. Undefined when there is none, or the entry has it already.
 */
export function reviewFor(
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

/** The event for an entry just marked. */
export function needsReview({ paymentReference, state, review }: Payment): NeedsReviewEvent {
  const { since: _since, ...said } = review!;
  return { type: 'needs-review', paymentReference, state, ...said };
}
