// The time the result screens count with: now, and a tick every so often. One module-wide clock, so
// that tests can put a controlled one in place (`useClock`) and move it as they need.

export type Clock = {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
  /** Calls `tick` every `ms` until the returned function is called. */
  every(ms: number, tick: () => void): () => void;
};

const systemClock: Clock = {
  now: () => Date.now(),
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
