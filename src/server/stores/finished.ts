// When a ledger entry may expire, for every store: only once nothing is owed on it.
import type { Payment } from './types.js';

/**
 * Nothing is owed on it: settled and fulfilled, failed, or never started, with no work due and no
 * fulfilment running. A stale PENDING entry is still unsettled, so it stays, as does one marked for
 * a person's review.
 */
export function isFinished(payment: Payment): boolean {
  if (payment.dueAt !== undefined || payment.lease !== undefined || payment.review !== undefined) return false;
  if (payment.state === 'SUCCESS') return payment.fulfilledAt !== undefined;
  return payment.state === 'FAILED' || payment.initiation === 'refused';
}
