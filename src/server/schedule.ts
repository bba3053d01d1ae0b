// When work owed on a ledger entry is next due: the reconciler's re-queries of a PENDING payment (a
// back-off measured from its creation, after which it is `stale`, for a person to look at), its
// sparse re-queries of a FAILED one (a late payment whose webhook was lost), the retries of a query
// nobody answered (they never use up a step), and the retries of an `onPaid` that threw (a back-off
// that never gives up).

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** When a PENDING payment is re-queried, measured from its `createdAt`: 1, 2, 5, 10, 30 min, 1 h, 3 h, 24 h. */
export const RECHECK_SCHEDULE_MS: readonly number[] = [1 * MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR, 24 * HOUR];

/**
 * The time of check number `checks + 1` of a payment created at `createdAt` (ms since the epoch),
 * once `checks` were made; undefined after the last.
 */
export function nextCheckAt(createdAt: number, checks: number): number | undefined {
  const offset = RECHECK_SCHEDULE_MS[Math.max(0, checks)];
  return offset === undefined ? undefined : createdAt + offset;
}

/** When a FAILED payment is asked about again, measured from its failure: 1 h, 6 h, 24 h, 72 h, then never. */
export const AFTER_FAILURE_SCHEDULE_MS: readonly number[] = [HOUR, 6 * HOUR, 24 * HOUR, 72 * HOUR];

/** The first re-query of a payment that FAILED at `failedAt` still ahead at `time`; undefined after the last. */
export function nextCheckAfterFailure(failedAt: number, time: number): number | undefined {
  const offset = AFTER_FAILURE_SCHEDULE_MS.find((step) => failedAt + step > time);
  return offset === undefined ? undefined : failedAt + offset;
}

/** When the entry's schedule (PENDING from its creation, FAILED from its failure) has no step left. */
export function scheduleEndsAt(payment: { state: string; createdAt: number; failedAt?: number; updatedAt: number }): number {
  if (payment.state === 'FAILED') return (payment.failedAt ?? payment.updatedAt) + AFTER_FAILURE_SCHEDULE_MS.at(-1)!;
  return payment.createdAt + RECHECK_SCHEDULE_MS.at(-1)!;
}

/** The waits before a query that got no readable answer is made again: 1, 5, 15 min, 1, 3, 6 h, then daily, for ever. */
const UNANSWERED_RETRY_MS: readonly number[] = [MINUTE, 5 * MINUTE, 15 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR];

/** When a query is made again at `now`, after `tries` queries in a row got no readable answer. */
export function unansweredRetryAt(now: number, tries: number): number {
  return now + (UNANSWERED_RETRY_MS[Math.max(0, tries - 1)] ?? 24 * HOUR);
}

/** The waits before `onPaid` runs again after it threw: 10 s, 30 s, 1 min, 5 min, 15 min, then hourly for ever. */
const FULFIL_RETRY_MS: readonly number[] = [10 * SECOND, 30 * SECOND, MINUTE, 5 * MINUTE, 15 * MINUTE];

/** When `onPaid` is next tried, at `now`, after `attempts` attempts that did not return. */
export function fulfilRetryAt(now: number, attempts: number): number {
  return now + (FULFIL_RETRY_MS[Math.max(0, attempts - 1)] ?? HOUR);
}
