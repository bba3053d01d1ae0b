// When a payment still PENDING is next asked about: a back-off counted from its creation, shared by
// the session handler (the first look, set when the entry is written) and the reconciler.

const MINUTE = 60_000;

/**
 * How long after its creation a PENDING payment is queried, one step per check: 1, 2, 5, 10 and
 * 30 minutes, 1, 3 and 24 hours. After the last, the payment is `stale`, for a person to look at.
 */
export const CHECK_SCHEDULE_MS: readonly number[] = [1, 2, 5, 10, 30, 60, 180, 1440].map((minutes) => minutes * MINUTE);

/** The first look, one minute after creation: the session handler writes it as the new entry's `dueAt`. */
export const FIRST_CHECK_MS = CHECK_SCHEDULE_MS[0]!;

/**
 * When the check after `checks` earlier ones is due (ms since the epoch), or undefined once the
 * schedule ran out. `nextCheckAt(createdAt, 0)` is the first look.
 */
export function nextCheckAt(createdAt: number, checks: number, schedule: readonly number[] = CHECK_SCHEDULE_MS): number | undefined {
  const step = schedule[Math.max(0, checks)];
  return step === undefined ? undefined : createdAt + step;
}
