// What a person may do to a ledger entry (`pay-widget ledger`, the ledger page): close its review
// or its stale state with a note, or make an owed `onPaid` due now, for the server to run (merchant
// code never runs here). Each is a compare-and-set, read again after a lost race, and goes into the
// entry's history.
import { owesFulfilment } from '../fulfilment/fulfil.js';
import type { Payment, PaymentStore } from '../stores/types.js';
import { DETAIL_LIMIT, type HistoryEvent } from './history.js';

export type ActionResult =
  { kind: 'done'; payment: Payment } | { kind: 'unknown' } | { kind: 'refused'; reason: string };

const TRIES = 5;

async function move(
  store: PaymentStore,
  reference: string,
  change: (entry: Payment) => Payment | string,
  event: HistoryEvent,
): Promise<ActionResult> {
  for (let tries = 0; tries < TRIES; tries += 1) {
    const entry = await store.get(reference);
    if (!entry) return { kind: 'unknown' };
    const next = change(entry);
    if (typeof next === 'string') return { kind: 'refused', reason: next };
    if (await store.update(next)) {
      await store.appendHistory?.(reference, event);
      return { kind: 'done', payment: { ...next, version: next.version + 1 } };
    }
  }
  return { kind: 'refused', reason: `${reference} kept changing; try again` };
}

/** Closes the entry's review or stale state: it leaves the list of what needs a person, the note kept. */
export function resolveEntry(store: PaymentStore, reference: string, note: string, now: number): Promise<ActionResult> {
  const kept = note.trim().slice(0, DETAIL_LIMIT);
  return move(
    store,
    reference,
    (entry) => {
      if (!entry.review && !entry.stale) return `${reference} has no review and is not stale: nothing to resolve`;
      const next: Payment = { ...entry, updatedAt: now, resolved: { at: now, note: kept } };
      delete next.review;
      delete next.stale;
      return next;
    },
    { at: now, what: 'resolved', detail: kept, by: 'person' },
  );
}

/** Makes the entry's owed `onPaid` due now: the server's next sweep (or status poll, or webhook) runs it. */
export function retryFulfilment(store: PaymentStore, reference: string, now: number): Promise<ActionResult> {
  return move(
    store,
    reference,
    (entry) => {
      if (!owesFulfilment(entry))
        return `${reference} owes no onPaid (${entry.state}${entry.fulfilledAt === undefined ? '' : ', fulfilled'})`;
      if (entry.lease && entry.lease.until > now)
        return `onPaid is running for ${reference} now (until ${new Date(entry.lease.until).toISOString()})`;
      return { ...entry, updatedAt: now, dueAt: now };
    },
    { at: now, what: 'retry-requested', by: 'person' },
  );
}
