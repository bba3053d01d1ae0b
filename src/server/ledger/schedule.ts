// When work owed on a ledger entry is next due: the reconciler's re-queries of a PENDING payment (a
// back-off measured from its creation, daily while its transfer account is open, then the late steps
// after the account closed, after which it is `stale`, for a person to look at), its
// sparse re-queries of a FAILED one (a late payment whose webhook was lost), the retries of a query
// nobody answered (they never use up a step), and the retries of an `onPaid` that threw (a back-off
// that never gives up).

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** When a PENDING payment is re-queried, measured from its `createdAt`: 1, 2, 5, 10, 30 min, 1 h, 3 h, 24 h. */
export const RECHECK_SCHEDULE_MS: readonly number[] = [
  1 * MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  HOUR,
  3 * HOUR,
  24 * HOUR,
];

/** How often a PENDING payment is re-queried after those steps while its account still takes money. */
const OPEN_ACCOUNT_CHECK_MS = 24 * HOUR;

/** When a FAILED payment is asked about again, measured from its failure: 1 h, 6 h, 24 h, 72 h, then never. */
export const AFTER_FAILURE_SCHEDULE_MS: readonly number[] = [HOUR, 6 * HOUR, 24 * HOUR, 72 * HOUR];

/**
 * The late steps of a PENDING payment whose account closed at `openUntil`, measured from it: the
 * same as after a failure, 1 h (the grace for a transfer made as it closed), 6 h, 24 h, 72 h.
 */
export const AFTER_CLOSE_SCHEDULE_MS: readonly number[] = AFTER_FAILURE_SCHEDULE_MS;

/**
 * The time of check number `checks + 1` of a payment created at `createdAt` (ms since the epoch),
 * once `checks` were made; undefined after the last. Without `openUntil` (USSD, or an entry written
 * before it was kept) the schedule ends with {@link RECHECK_SCHEDULE_MS}; with it, daily checks
 * follow while the account is open, then {@link AFTER_CLOSE_SCHEDULE_MS} after it closed.
 */
export function nextCheckAt(createdAt: number, checks: number, openUntil?: number): number | undefined {
  const step = Math.max(0, checks);
  const early = RECHECK_SCHEDULE_MS[step];
  if (early !== undefined) return createdAt + early;
  if (openUntil === undefined) return undefined;
  const lastEarly = createdAt + RECHECK_SCHEDULE_MS.at(-1)!;
  const beyond = step - RECHECK_SCHEDULE_MS.length;
  // The daily checks strictly between the last early step and the account's close.
  const openChecks = Math.max(0, Math.ceil((openUntil - lastEarly) / OPEN_ACCOUNT_CHECK_MS) - 1);
  if (beyond < openChecks) return lastEarly + (beyond + 1) * OPEN_ACCOUNT_CHECK_MS;
  const late = AFTER_CLOSE_SCHEDULE_MS[beyond - openChecks];
  return late === undefined ? undefined : openUntil + late;
}

/** The first re-query of a payment that FAILED at `failedAt` still ahead at `time`; undefined after the last. */
export function nextCheckAfterFailure(failedAt: number, time: number): number | undefined {
  const offset = AFTER_FAILURE_SCHEDULE_MS.find((step) => failedAt + step > time);
  return offset === undefined ? undefined : failedAt + offset;
}

/** When the entry's schedule (PENDING from its creation and its account's close, FAILED from its failure) has no step left. */
export function scheduleEndsAt(payment: {
  state: string;
  createdAt: number;
  failedAt?: number;
  updatedAt: number;
  openUntil?: number;
}): number {
  if (payment.state === 'FAILED') return (payment.failedAt ?? payment.updatedAt) + AFTER_FAILURE_SCHEDULE_MS.at(-1)!;
  const early = payment.createdAt + RECHECK_SCHEDULE_MS.at(-1)!;
  if (payment.openUntil === undefined) return early;
  return Math.max(early, payment.openUntil + AFTER_CLOSE_SCHEDULE_MS.at(-1)!);
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
