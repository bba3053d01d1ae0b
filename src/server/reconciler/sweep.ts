// One sweep of the reconciler: claims the ledger's due entries in bounded batches (`claimDue`,
// atomic, so many instances may sweep at once) until none is left or `limit` were taken, hands each
// to `reconcile`, and counts what happened. A failure is counted and reported, never thrown.
import { errorName } from '../http/emitter.js';
import type { Payment, PaymentStore } from '../stores/types.js';

/** What one sweep did. */
export type ReconcileCounts = {
  /** Gateway queries made. */
  checked: number;
  /** Payments this sweep settled SUCCESS (a late success included). */
  paid: number;
  /** Payments this sweep settled FAILED (the gateway said so). */
  failed: number;
  /** Payments whose `onPaid` this sweep ran to its return. */
  fulfilled: number;
  /** Payments still owed work, due again later: pending at the gateway, or `onPaid` running elsewhere. */
  pending: number;
  /** Payments whose schedule ran out while the gateway still said pending: for a person to look at. */
  stale: number;
  /** Entries the sweep could not move: an unanswered query, an `onPaid` that threw, a store that failed. */
  errors: number;
};

/** What `onEvent` hears from the sweep itself. */
export type SweepEvent =
  /** Each sweep's counts, when it ends. */
  | { type: 'reconcile-sweep'; counts: ReconcileCounts }
  /** The sweep itself failed: the store's claim threw, or handling an entry did. `detail`: the error's class name. */
  | { type: 'internal-error'; where: 'reconciler'; paymentReference?: string; detail: string };

export type SweepOptions = {
  payments: Pick<PaymentStore, 'claimDue'>;
  now: () => number;
  /** Entries claimed at a time. */
  batchSize: number;
  /** How long a claim keeps other sweepers off the entries it took. */
  holdMs: number;
  emit: (event: SweepEvent) => void;
  /** The work on one claimed entry, adding to `counts`. */
  reconcile: (entry: Payment, counts: ReconcileCounts) => Promise<void>;
};

/** One sweep: claims due entries until none is left (or `limit` were taken). Never throws. */
export async function sweepDue(options: SweepOptions, limit?: number): Promise<ReconcileCounts> {
  const { payments, now, batchSize, holdMs, emit } = options;
  const counts: ReconcileCounts = { checked: 0, paid: 0, failed: 0, fulfilled: 0, pending: 0, stale: 0, errors: 0 };
  const most = limit ?? Number.POSITIVE_INFINITY;
  const seen = new Set<string>();
  while (seen.size < most) {
    let batch: Payment[];
    try {
      batch = await payments.claimDue(now(), Math.min(batchSize, most - seen.size), holdMs);
    } catch (error) {
      counts.errors += 1;
      emit({ type: 'internal-error', where: 'reconciler', detail: errorName(error) });
      break;
    }
    // Taken again within one sweep only when the clock passed its hold: that waits for the next sweep.
    const fresh = batch.filter((entry) => !seen.has(entry.paymentReference));
    if (fresh.length === 0) break;
    for (const entry of fresh) seen.add(entry.paymentReference);
    await Promise.all(fresh.map((entry) => reconcileSafely(options, entry, counts)));
  }
  emit({ type: 'reconcile-sweep', counts: { ...counts } });
  return counts;
}

async function reconcileSafely(options: SweepOptions, entry: Payment, counts: ReconcileCounts): Promise<void> {
  try {
    await options.reconcile(entry, counts);
  } catch (error) {
    counts.errors += 1;
    options.emit({
      type: 'internal-error',
      where: 'reconciler',
      paymentReference: entry.paymentReference,
      detail: errorName(error),
    });
  }
}
