// The memory ledger's entries: held as copies, found by Idempotency-Key and by being due, and kept
// within `maxEntries`. Room is made by dropping finished entries past `ttlMs`, then the oldest
// finished one, then the oldest unpaid one nobody can still poll or sweep (reported); when no entry
// is either, the insert is refused rather than a payment forgotten.
import { RECHECK_SCHEDULE_MS, scheduleEndsAt } from '../ledger/schedule.js';
import { isFinished } from './finished.js';
import { memoryLedgerViews } from './memory-ledger.js';
import type { Payment, PaymentState } from './types.js';

/** What the in-memory ledger tells `onEvent`: an unpaid entry it dropped to make room. */
export type MemoryLedgerEvent = {
  type: 'ledger-evicted';
  paymentReference: string;
  state: PaymentState;
  createdAt: number;
};

export type EntryTableOptions = {
  maxEntries: number;
  /** How long a finished entry is kept. */
  ttlMs: number;
  /** How long an unpaid entry is kept at least, from its creation. */
  unpaidTtlMs: number;
  now: () => number;
  onEvent: (event: MemoryLedgerEvent) => void;
};

/**
 * A reconciler that has not taken due entries for this long is taken to be gone: their `dueAt` is
 * nobody's to honour.
 */
const SWEEPER_GONE_MS = 24 * 60 * 60 * 1000;

export function createEntryTable(options: EntryTableOptions) {
  const { maxEntries, ttlMs, unpaidTtlMs, now, onEvent } = options;
  const entries = new Map<string, Payment>();
  const byKey = new Map<string, string>();
  // Finished entries in the order they finished (a Map iterates in insertion order): the oldest first.
  const finished = new Map<string, number>();
  const due = new Set<string>();
  // When a reconciler last took due entries here (claimDue): while one sweeps, a due check is kept for it.
  let sweptAt = Number.NEGATIVE_INFINITY;
  const { forget: forgetHistory, ...views } = memoryLedgerViews(entries);

  function forget(reference: string): void {
    forgetHistory(reference);
    const payment = entries.get(reference);
    if (payment?.idempotencyKey !== undefined) byKey.delete(payment.idempotencyKey);
    entries.delete(reference);
    finished.delete(reference);
    due.delete(reference);
  }

  return {
    entries: entries as ReadonlyMap<string, Payment>,
    byKey: byKey as ReadonlyMap<string, string>,
    due: due as ReadonlySet<string>,
    views,
    /** Stores a copy of `payment`, filed as finished or due as it now is. */
    keep(payment: Payment): void {
      const stored = structuredClone(payment);
      entries.set(stored.paymentReference, stored);
      finished.delete(stored.paymentReference);
      if (isFinished(stored)) finished.set(stored.paymentReference, now());
      if (stored.dueAt === undefined) due.delete(stored.paymentReference);
      else due.add(stored.paymentReference);
    },
    /** Files a new entry under the Idempotency-Key it was inserted with. */
    keyed(key: string, reference: string): void {
      byKey.set(key, reference);
    },
    /** Makes room for one more entry, or throws when every entry is still owed work. */
    makeRoom(): void {
      const time = now();
      for (const [reference, finishedAt] of finished) {
        if (finishedAt + ttlMs > time) break;
        forget(reference);
      }
      if (entries.size < maxEntries) return;
      const oldest = finished.keys().next();
      if (!oldest.done) return forget(oldest.value);
      const sweeping = time - sweptAt < SWEEPER_GONE_MS;
      const { paymentReference, state, createdAt } =
        oldestAbandoned(entries.values(), time, unpaidTtlMs, sweeping) ?? full(maxEntries);
      forget(paymentReference);
      onEvent({ type: 'ledger-evicted', paymentReference, state, createdAt });
    },
    /** A reconciler took due entries now. */
    swept(at: number): void {
      sweptAt = Math.max(sweptAt, at);
    },
  };
}

/**
 * Unpaid, nobody working on it, past its re-query schedule, its account's life and `unpaidTtlMs`:
 * no poll can still read it (its status token expired), no transfer can still reach it, and no
 * sweep still asks about it. Never a paid entry (its fulfilment may be owed), nor one whose query is
 * retried for want of an answer, nor, while a reconciler sweeps (`sweeping`), one still due a check:
 * its last step may be due the very moment its schedule ends.
 */
function isAbandoned(payment: Payment, time: number, unpaidTtlMs: number, sweeping: boolean): boolean {
  if (payment.state === 'SUCCESS' || payment.lease !== undefined || payment.unanswered) return false;
  if (sweeping && payment.dueAt !== undefined) return false;
  return time >= Math.max(scheduleEndsAt(payment), payment.openUntil ?? 0, payment.createdAt + unpaidTtlMs);
}

function full(maxEntries: number): never {
  throw new Error(`the memory ledger holds ${maxEntries} payments still owed work (maxEntries)`);
}

/** The oldest entry `isAbandoned`, of `entries` in the order they were inserted (the oldest first). */
function oldestAbandoned(
  entries: Iterable<Payment>,
  time: number,
  unpaidTtlMs: number,
  sweeping: boolean,
): Payment | undefined {
  const youngest = Math.max(unpaidTtlMs, RECHECK_SCHEDULE_MS.at(-1)!);
  for (const payment of entries) {
    if (payment.createdAt + youngest > time) return undefined; // every later one is younger still
    if (isAbandoned(payment, time, unpaidTtlMs, sweeping)) return payment;
  }
  return undefined;
}
