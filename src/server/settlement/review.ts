// What a person at the shop must look at, which no automatic step settles: a payment the gateway
// reported for another amount or currency, or one it confirmed after it had said it failed or
// expired. The ledger entry keeps it (`Payment.review`, never expired), the status answer says it
// (`reason`, `amountReceived`), and `onEvent` hears `needs-review` once per reason.
import type { Payment, PaymentReview } from '../ledger/entry.js';

/** Once per reason, when the entry is first marked for a person's review. */
export type NeedsReviewEvent = { type: 'needs-review'; paymentReference: string; state: Payment['state'] } & Omit<
  PaymentReview,
  'since'
>;

/** The event for an entry just marked. */
export function needsReview({ paymentReference, state, review }: Payment): NeedsReviewEvent {
  const { since: _since, ...said } = review!;
  return { type: 'needs-review', paymentReference, state, ...said };
}
