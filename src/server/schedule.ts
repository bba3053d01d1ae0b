// When work owed on a ledger entry is next due: the reconciler's re-queries of a PENDING payment (a
// back-off measured from its creation, after which it is `stale`, for a person to look at) and the
// retries of an `onPaid` that threw (a back-off that never gives up).

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

/** The waits before `onPaid` runs again after it threw: 10 s, 30 s, 1 min, 5 min, 15 min, then hourly for ever. */
const FULFIL_RETRY_MS: readonly number[] = [10 * SECOND, 30 * SECOND, MINUTE, 5 * MINUTE, 15 * MINUTE];

/** When `onPaid` is next tried, at `now`, after `attempts` attempts that did not return. */
export function fulfilRetryAt(now: number, attempts: number): number {
  return now + (FULFIL_RETRY_MS[Math.max(0, attempts - 1)] ?? HOUR);
}
