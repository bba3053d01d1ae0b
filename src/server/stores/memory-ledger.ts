// What the memory ledger adds for a person: each entry's history (at most HISTORY_LIMIT events,
// forgotten with the entry) and the list and search over the entries.
import { HISTORY_LIMIT, type HistoryEvent } from '../ledger/history.js';
import { selectEntries, type LedgerQuery } from '../ledger/queries.js';
import type { Payment } from './types.js';

export function memoryLedgerViews(entries: ReadonlyMap<string, Payment>) {
  const histories = new Map<string, HistoryEvent[]>();
  return {
    appendHistory(paymentReference: string, event: HistoryEvent): void {
      if (!entries.has(paymentReference)) return;
      const events = histories.get(paymentReference) ?? [];
      events.push(structuredClone(event));
      if (events.length > HISTORY_LIMIT) events.splice(0, events.length - HISTORY_LIMIT);
      histories.set(paymentReference, events);
    },
    history(paymentReference: string): HistoryEvent[] {
      return entries.has(paymentReference) ? structuredClone(histories.get(paymentReference) ?? []) : [];
    },
    list(query: LedgerQuery): Payment[] {
      return structuredClone(selectEntries(entries.values(), query));
    },
    /** The entry was dropped: its history goes with it. */
    forget(paymentReference: string): void {
      histories.delete(paymentReference);
    },
  };
}
