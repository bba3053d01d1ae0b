// The time the result screens count with: a monotonic reading in milliseconds (`performance.now()`,
// which the phone's clock being wrong, or set while the customer is away, does not move), and a
// tick every so often. One module-wide clock, so that tests can put a controlled one in place
// (`useClock`) and move it as they need. Only differences between two readings mean anything.

export type Clock = {
  /** Milliseconds on a monotonic clock, as `performance.now()`. */
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
};

const systemClock: Clock = {
  now: () => performance.now(),
  every(ms, tick) {
    const id = setInterval(tick, ms);
    return () => clearInterval(id);
  },
};

/** The clock in use. */
export let clock: Clock = systemClock;

/** Puts `replacement` in place of the system clock (for tests); returns what puts the system clock back. */
export function useClock(replacement: Clock): () => void {
  clock = replacement;
  return () => (clock = systemClock);
}
