// What the reconciler writes after asking the gateway about an entry: the next step of its schedule
// (PENDING: from its creation, daily while its transfer account is open, 1 h, 6 h, 24 h, 72 h after
// it closed, then `stale`; FAILED: 1 h, 6 h, 24 h, 72 h after the failure, then
// nothing), or, when the query got no readable answer, the same step again after a back-off. An
// unanswered query never uses up a step and never makes an entry stale, nor does one made before
// its step was due. The moves are ledger/moves.ts's (`schedule-step`, `query-unanswered`, `off-sweep`).
import type { Payment } from '../ledger/entry.js';
import { moveEntry, type EntryEvent } from '../ledger/moves.js';
import { writeMove } from '../ledger/write.js';
import type { PaymentStore } from '../stores/types.js';

export type Ledger = {
  payments: PaymentStore;
  now: () => number;
  emit: (event: { type: 'stale'; paymentReference: string; checks: number }) => void;
};

/** How often a schedule step is written again after losing a race, before waiting for the next sweep. */
const MAX_WRITES = 4;

/**
 * Moves an entry the gateway answered for (still pending, or still failed) to its next check, or
 * ends its schedule: `stale` after the last PENDING step, nothing more after the last FAILED one.
 * Re-reads after a lost race; an entry settled meanwhile is not this sweep's to schedule.
 */
export async function nextStep(ledger: Ledger, latest: Payment): Promise<'pending' | 'stale' | 'done' | undefined> {
  const written = await rewrite(ledger, latest, () => ({
    type: 'schedule-step',
    at: ledger.now(),
    state: latest.state,
  }));
  if (!written) return undefined;
  const [before, after] = written;
  if (after.state === 'FAILED') return after.dueAt === undefined ? 'done' : 'pending';
  if (!after.stale) return 'pending';
  if (!before.stale)
    ledger.emit({ type: 'stale', paymentReference: after.paymentReference, checks: after.checks ?? 0 });
  return 'stale';
}

/** The query got no readable answer: the same step is tried again after a back-off, for as long as it takes. */
export async function retryUnanswered(ledger: Ledger, latest: Payment): Promise<void> {
  await rewrite(ledger, latest, () => ({ type: 'query-unanswered', at: ledger.now(), state: latest.state }));
}

/** An entry due for nothing the reconciler does (it never started, or was settled elsewhere): off the sweep. */
export async function nothingOwed(payments: PaymentStore, entry: Payment): Promise<void> {
  await rewrite({ payments }, entry, () => ({ type: 'off-sweep' }), 1);
}

/**
 * Writes the move by compare-and-set while the entry keeps its state; the entry before and after.
 * A store that threw is thrown to the sweep, which counts and reports it.
 */
async function rewrite(
  ledger: Pick<Ledger, 'payments'>,
  latest: Payment,
  event: () => EntryEvent,
  tries = MAX_WRITES,
): Promise<[Payment, Payment] | undefined> {
  let failure: { error: unknown } | undefined;
  const written = await writeMove(ledger.payments, latest, (current) => moveEntry(current, event()), {
    tries,
    report: (error) => (failure ??= { error }),
    onThrow: 'give-up',
  });
  if (failure) throw failure.error;
  // Settled meanwhile: not ours to schedule. Lost too often: its claim lapses, and a later sweep takes it again.
  return written.kind === 'written' ? [written.before, written.after] : undefined;
}
