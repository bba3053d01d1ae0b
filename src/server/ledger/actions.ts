// What a person may do to a ledger entry (`pay-widget ledger`, the ledger page): close its review
// or its stale state with a note, or make an owed `onPaid` due now, for the server to run (merchant
// code never runs here). Each is a compare-and-set, read again after a lost race, and goes into the
// entry's history.
import type { PaymentStore } from '../stores/types.js';
import { owesFulfilment, type Payment } from './entry.js';
import { DETAIL_LIMIT, type HistoryEvent } from './history.js';
import type { EntryEvent } from './moves.js';
import { writeMove } from './write.js';

export type ActionResult =
  { kind: 'done'; payment: Payment } | { kind: 'unknown' } | { kind: 'refused'; reason: string };

const TRIES = 5;

/** Writes `event`'s move; `refusal` says why, for a person, when it does not apply to the entry. */
async function move(
  store: PaymentStore,
  reference: string,
  event: EntryEvent,
  refusal: (entry: Payment) => string,
  history: HistoryEvent,
): Promise<ActionResult> {
  let failure: { error: unknown } | undefined;
  const written = await writeMove(store, reference, event, {
    tries: TRIES,
    report: (error) => (failure ??= { error }),
    onThrow: 'give-up',
  });
  if (failure) throw failure.error;
  switch (written.kind) {
    case 'written':
      await store.appendHistory?.(reference, history);
      return { kind: 'done', payment: written.after };
    case 'not-applicable':
      return { kind: 'refused', reason: refusal(written.entry) };
    case 'missing':
      return { kind: 'unknown' };
    default:
      return { kind: 'refused', reason: `${reference} kept changing; try again` };
  }
}

/** Closes the entry's review or stale state: it leaves the list of what needs a person, the note kept. */
export function resolveEntry(store: PaymentStore, reference: string, note: string, now: number): Promise<ActionResult> {
  const kept = note.trim().slice(0, DETAIL_LIMIT);
  return move(
    store,
    reference,
    { type: 'resolved', at: now, note: kept },
    () => `${reference} has no review and is not stale: nothing to resolve`,
    { at: now, what: 'resolved', detail: kept, by: 'person' },
  );
}

/** Makes the entry's owed `onPaid` due now: the server's next sweep (or status poll, or webhook) runs it. */
export function retryFulfilment(store: PaymentStore, reference: string, now: number): Promise<ActionResult> {
  return move(
    store,
    reference,
    { type: 'retry-requested', at: now },
    (entry) =>
      owesFulfilment(entry)
        ? `onPaid is running for ${reference} now (until ${new Date(entry.lease!.until).toISOString()})`
        : `${reference} owes no onPaid (${entry.state}${entry.fulfilledAt === undefined ? '' : ', fulfilled'})`,
    { at: now, what: 'retry-requested', by: 'person' },
  );
}
