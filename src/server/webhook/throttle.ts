// How often the webhook asks the gateway about one reference. Notifications arriving while it asks
// share that verification; those arriving within the interval after it get its verdict, remembered
// in a bounded map (the least recently used forgotten first). Across instances the ledger entry's
// `checkedAt` is the claim (see checks.ts); a reference the ledger does not hold has only this
// memory. Every query, for a reference the ledger holds or not, takes from one budget: so many a
// second for all of them, and so many per notification request (one may name 50 references).

/** `done`: answered 200, the gateway stops; `retry`: answered 503, the gateway delivers it again. */
export type Verdict = 'done' | 'retry';

/** Verdicts kept at most: a few hundred kilobytes, whatever the notifications name. */
const MAX_REMEMBERED = 10_000;

export type VerdictMemory = {
  /** Runs `check` for `reference`, unless one is running: its verdict is then shared. */
  share(reference: string, check: () => Promise<Verdict>): Promise<Verdict>;
  /** The verdict remembered for `reference`, if reached less than the interval ago. */
  recent(reference: string): Verdict | undefined;
  remember(reference: string, verdict: Verdict): void;
};

export function createVerdictMemory(intervalMs: number, now: () => number): VerdictMemory {
  const running = new Map<string, Promise<Verdict>>();
  // A Map iterates in insertion order: re-inserting on each use keeps the least recent first.
  const verdicts = new Map<string, { verdict: Verdict; at: number }>();
  return {
    share(reference, check) {
      let verification = running.get(reference);
      if (!verification) {
        verification = check().finally(() => running.delete(reference));
        running.set(reference, verification);
      }
      return verification;
    },
    recent(reference) {
      const remembered = verdicts.get(reference);
      if (!remembered) return undefined;
      verdicts.delete(reference);
      if (now() - remembered.at >= intervalMs) return undefined;
      verdicts.set(reference, remembered);
      return remembered.verdict;
    },
    remember(reference, verdict) {
      verdicts.delete(reference);
      verdicts.set(reference, { verdict, at: now() });
      if (verdicts.size > MAX_REMEMBERED) verdicts.delete(verdicts.keys().next().value!);
    },
  };
}

/**
 * A token bucket: `take()` is true for `perSecond` queries a second on average, at most
 * `max(1, perSecond)` at once, and false beyond.
 */
export function createQueryBudget(perSecond: number, now: () => number): { take(): boolean } {
  const capacity = Math.max(1, perSecond);
  let tokens = capacity;
  let last = now();
  return {
    take() {
      const time = now();
      tokens = Math.min(capacity, tokens + (Math.max(0, time - last) * perSecond) / 1_000);
      last = time;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

/** What one notification request may still ask the gateway: true while both budgets allow one more query. */
export type QueryAllowance = () => boolean;

/** Up to `perRequest` queries for one request, each also taken from the shared per-second `budget`. */
export function requestAllowance(perRequest: number, budget: { take(): boolean }): QueryAllowance {
  let left = perRequest;
  return () => {
    if (left <= 0 || !budget.take()) return false;
    left -= 1;
    return true;
  };
}
