// The one writer of an entry's moves: the move (moves.ts) applied to the entry as last known, written
// with the store's compare-and-set on `version`; after a lost race the entry is read again and the
// move applied to it, up to a bound. Every change the server makes to an entry goes through here;
// only the stores' own atomic paths (`claimDue`, `markDue`, PostgreSQL's fulfilment) do not.
import type { Payment } from './entry.js';
import { moveEntry, type EntryEvent } from './moves.js';

type Awaitable<T> = T | Promise<T>;

/** What the writer needs of a ledger: a read, and a compare-and-set (which may also refuse queued writes). */
export type CasLedger = {
  get(paymentReference: string): Awaitable<Payment | undefined>;
  update(payment: Payment): Awaitable<boolean | { failed: unknown }>;
};

/** A move as the writer applies it: an event (moves.ts), or the entry after it (undefined: does not apply). */
export type Move = EntryEvent | ((entry: Payment) => Payment | undefined);

export type WriteOptions = {
  /** How many writes at most; default 8. */
  tries?: number;
  /** Hears every error a store threw (a read or a write); the writer itself never throws. */
  report?: (error: unknown) => void;
  /**
   * Whether a write that lost its race is worth another try; default yes. One that need not land (a
   * mere record of a check) gives up at once.
   */
  mustLand?: (next: Payment, current: Payment) => boolean;
  /** Whether the entry read again shows this write landed, its reply lost (a lease with this owner). */
  landed?: (reread: Payment) => boolean;
  /**
   * A write that threw: `retry` (the default) reads again and tries again; `give-up` gives up at once;
   * `give-up-if-unchanged` gives up when the entry read again still has the version it had (the
   * store is in trouble), and tries again on the entry as changed.
   */
  onThrow?: 'retry' | 'give-up' | 'give-up-if-unchanged';
  /** Tried past `tries` for as long as this holds: a fulfilment's mark while its lease holds. */
  keepTrying?: () => boolean;
  /** A ledger that cannot be read after a lost race is waited for (25 ms, doubling to 500) and tried again. */
  waitForStore?: boolean;
};

/**
 * What a write came to:
 * - `written`: the entry `before` the move and `after` it, as stored;
 * - `not-applicable`: the move does not apply to `entry`, as last read;
 * - `missing`: the ledger does not hold it;
 * - `unreadable`: the entry named by its reference could not be read (reported);
 * - `gave-up`: still `entry` as last known, after a lost race (`conflict`), a store that threw (`store`, reported),
 *   or `tries` writes that lost;
 * - `refused`: the store's compare-and-set refused the write for `error` (a queued write threw), writing nothing.
 */
export type Written =
  | { kind: 'written'; before: Payment; after: Payment }
  | { kind: 'not-applicable'; entry: Payment }
  | { kind: 'missing' }
  | { kind: 'unreadable' }
  | { kind: 'gave-up'; entry: Payment; why: 'conflict' | 'store' | 'tries' }
  | { kind: 'refused'; entry: Payment; error: unknown };

const DEFAULT_TRIES = 8;

const moveOf = (move: Move) => (typeof move === 'function' ? move : (entry: Payment) => moveEntry(entry, move));

/**
 * Writes `move` on the entry `from` (an entry as last known, tried first with no read, or a
 * reference, read first).
 */
export async function writeMove(
  ledger: CasLedger,
  from: Payment | string,
  move: Move,
  options: WriteOptions = {},
): Promise<Written> {
  const apply = moveOf(move);
  const tries = options.tries ?? DEFAULT_TRIES;
  const reader = rereader(ledger, typeof from === 'string' ? from : from.paymentReference, options);
  const first = typeof from === 'string' ? await reader.read() : from;
  if (first === 'store') return { kind: 'unreadable' };
  let current = first;
  for (let attempt = 1; ; attempt += 1) {
    if (!current) return { kind: 'missing' };
    const next = apply(current);
    if (!next || next === current) return { kind: 'not-applicable', entry: current };
    const written = await compareAndSet(ledger, next, options.report);
    if (written === true) return { kind: 'written', before: current, after: { ...next, version: current.version + 1 } };
    if (written !== false && written !== 'threw') return { kind: 'refused', entry: current, error: written.failed };
    const lost = { kind: 'gave-up', entry: current, why: written === 'threw' ? 'store' : 'conflict' } as const;
    if (written === 'threw' && options.onThrow === 'give-up') return lost;
    if (options.mustLand && !options.mustLand(next, current)) return lost;
    const more = attempt < tries || options.keepTrying?.() === true;
    const spent = { ...lost, why: written === 'threw' ? 'store' : 'tries' } as const;
    if (!more && !options.landed) return spent;
    const reread = await reader.read();
    if (reread === 'store' || reread === undefined) {
      if (more && options.waitForStore) {
        await reader.pause();
        continue;
      }
      return reread === 'store' ? { kind: 'gave-up', entry: current, why: 'store' } : { kind: 'missing' };
    }
    if (options.landed?.(reread)) return { kind: 'written', before: current, after: reread };
    if (!more) return spent;
    if (written === 'threw' && options.onThrow === 'give-up-if-unchanged' && reread.version === current.version)
      return lost;
    current = reread;
  }
}

/** The store's compare-and-set: true, false (lost), `threw` (reported), or a refusal with its error. */
async function compareAndSet(
  ledger: CasLedger,
  next: Payment,
  report: ((error: unknown) => void) | undefined,
): Promise<boolean | 'threw' | { failed: unknown }> {
  try {
    return await ledger.update(next);
  } catch (error) {
    report?.(error);
    return 'threw';
  }
}

/** Reads the entry again: `store` when the store threw (reported); a pause between reads that failed. */
function rereader(ledger: CasLedger, reference: string, options: WriteOptions) {
  let pause = 25;
  return {
    async read(): Promise<Payment | undefined | 'store'> {
      try {
        return await ledger.get(reference);
      } catch (error) {
        options.report?.(error);
        return 'store';
      }
    },
    async pause(): Promise<void> {
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 500);
    },
  };
}
