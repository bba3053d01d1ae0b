// The time limit on `onPaid`: the caller waits for it at most `onPaidTimeoutMs`, then aborts the
// signal `onPaid` was given and goes on without it. JavaScript cannot stop a function, so an
// `onPaid` that ignores its signal may still be running: the lease (fulfil.ts) or the closed
// transaction (PostgreSQL) decides what it can still do.

/** `onPaid`, when a merchant gives none: long enough for a slow warehouse call, short of a held-up pool. */
export const DEFAULT_ON_PAID_TIMEOUT_MS = 30_000;

/** The longest delay a timer takes (about 24.8 days); a longer limit is this one. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** What a store's `fulfilInTransaction` throws when `onPaid` outlived its time limit: its work was rolled back. */
export class OnPaidTimeoutError extends Error {
  override name = 'TimeoutError';
  constructor(timeoutMs: number) {
    super(`onPaid did not return within ${timeoutMs} ms`);
  }
}

export type HookOutcome =
  { kind: 'returned' } | { kind: 'threw'; error: unknown } | { kind: 'timeout' } | { kind: 'stopped' };

export type LimitedRun = {
  /** How the hook ended, or `timeout` once the limit passed, or `stopped` once `stop` settled first. */
  outcome: Promise<HookOutcome>;
  /** Settles when the hook itself ends, however late: `returned` or `threw`. */
  finished: Promise<'returned' | 'threw'>;
};

/**
 * Runs `hook` with a signal that aborts after `timeoutMs` (or when `stop` settles). The timer does
 * not keep a process alive by itself.
 */
export function runWithinLimit(
  timeoutMs: number,
  hook: (signal: AbortSignal) => void | Promise<void>,
  stop?: Promise<void>,
): LimitedRun {
  const controller = new AbortController();
  const finished = (async () => hook(controller.signal))().then(
    () => ({ kind: 'returned' }) as const,
    (error: unknown) => ({ kind: 'threw', error }) as const,
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<HookOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timeout' }), Math.min(timeoutMs, LONGEST_TIMER_MS));
    (timer as { unref?: () => void }).unref?.();
  });
  const stopped = stop?.then(() => ({ kind: 'stopped' }) as const) ?? new Promise<never>(() => {});
  const outcome = Promise.race([finished, expired, stopped]).then((result) => {
    clearTimeout(timer);
    if (result.kind === 'timeout' || result.kind === 'stopped') {
      controller.abort(new DOMException(`onPaid did not return within ${timeoutMs} ms`, 'TimeoutError'));
    }
    return result;
  });
  return { outcome, finished: finished.then((result) => result.kind) };
}
