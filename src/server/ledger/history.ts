// Each ledger entry's history: an append-only list of what happened to the payment (its creation, the
// gateway's instructions, each query and its answer or none, paid / failed / late success / review,
// each `onPaid` run, a person's action), kept beside the entry by every store, bounded, and gone
// with it. Written from the decisions the endpoints and the reconciler already report (the same
// events `onEvent` hears, so never a token, a key or a customer detail) and by `pay-widget ledger`.
import type { HistoryEvent, HistoryWhat, Payment, PaymentStore } from '../stores/types.js';

export type { HistoryEvent, HistoryWhat } from '../stores/types.js';

/** How many events an entry keeps; beyond it the oldest are dropped (its first, `created`, too). */
export const HISTORY_LIMIT = 100;
/** The longest detail kept: a person's note is cut here. */
export const DETAIL_LIMIT = 500;

/** What stores that keep a history add to the ledger. */
export type HistoryStore = {
  appendHistory(paymentReference: string, event: HistoryEvent): Promise<void> | void;
  history(paymentReference: string): Promise<HistoryEvent[]> | HistoryEvent[];
};

export function keepsHistory(store: PaymentStore): store is PaymentStore & HistoryStore {
  return typeof store.appendHistory === 'function' && typeof store.history === 'function';
}

/**
 * The entry's history as a person reads it: its creation (implied by the entry, so recording a new
 * payment costs no write) and what the store kept since.
 */
export async function historyOf(store: PaymentStore, payment: Payment): Promise<HistoryEvent[]> {
  const created: HistoryEvent = {
    at: payment.createdAt,
    what: 'created',
    detail: `${payment.amount} ${payment.currency}`,
  };
  return [created, ...((await store.history?.(payment.paymentReference)) ?? [])];
}

/** The event as kept: its detail cut to {@link DETAIL_LIMIT}. */
export function boundedEvent(event: HistoryEvent): HistoryEvent {
  if (event.detail === undefined || event.detail.length <= DETAIL_LIMIT) return event;
  return { ...event, detail: event.detail.slice(0, DETAIL_LIMIT) };
}

type Reported = { type: string; paymentReference?: string; [field: string]: unknown };

/** The history event a reported decision adds to its entry, or none. */
export function historyFromEvent(event: Reported, at: number): HistoryEvent | undefined {
  const made = (what: HistoryWhat, detail?: string): HistoryEvent => ({
    at,
    what,
    ...(detail === undefined ? {} : { detail }),
  });
  switch (event.type) {
    case 'initiated':
      return made('instructions', String(event.paymentType));
    case 'gateway':
      return event.outcome === 'success'
        ? undefined
        : made('initiation-failed', [event.outcome, event.httpStatus].filter((part) => part !== undefined).join(' '));
    case 'verified':
      return made('query-answered', `${String(event.state)} (code ${String(event.code)})`);
    case 'unverified':
      return made('query-unanswered', [event.reason, event.httpStatus].filter((part) => part !== undefined).join(' '));
    case 'paid':
      return made('paid', `${String(event.amount)} ${String(event.currency)}`);
    case 'failed':
      return made('failed', `code ${String(event.code)}`);
    case 'late-success':
      return made('late-success', `after code ${String(event.previousCode)}`);
    case 'needs-review':
      return made('review', reviewDetail(event));
    case 'stale':
      return made('stale', `still pending after ${String(event.checks)} queries`);
    case 'fulfilled':
      return made('onPaid-returned', `attempt ${String(event.attempts)}`);
    case 'onPaid-timeout':
      return made('onPaid-timed-out', `after ${String(event.timeoutMs)} ms`);
    case 'internal-error':
      return event.where === 'onPaid' ? made('onPaid-threw', String(event.detail)) : undefined;
    default:
      return undefined;
  }
}

function reviewDetail(event: Reported): string {
  const received =
    event.amountReceived === undefined
      ? ''
      : `: ${String(event.amountReceived)} ${String(event.currencyReceived ?? '')} received`;
  return `${String(event.reason)}${received}`.trim();
}

/**
 * Appends to the entry's history without ever failing the payment: a store without a history, or
 * one that cannot be written just now, loses the line, never the move it describes. Appends for one
 * reference are written in the order they were made.
 */
export type HistoryRecorder = ((paymentReference: string, event: HistoryEvent) => void) & {
  /** Settles once every append made so far was written (or given up). */
  flush(): Promise<void>;
};

export function createHistoryRecorder(store: PaymentStore): HistoryRecorder {
  if (!keepsHistory(store)) return Object.assign(() => {}, { flush: async () => {} });
  const queues = new Map<string, Promise<void>>();
  const record = (paymentReference: string, event: HistoryEvent) => {
    const previous = queues.get(paymentReference) ?? Promise.resolve();
    const next = previous.then(() => store.appendHistory(paymentReference, boundedEvent(event))).catch(() => {});
    queues.set(paymentReference, next);
    void next.then(() => {
      if (queues.get(paymentReference) === next) queues.delete(paymentReference);
    });
  };
  return Object.assign(record, { flush: async () => void (await Promise.all(queues.values())) });
}

/** The recorder as an `onEvent` listener: each reported decision about an entry goes into its history. */
export function historyListener(
  record: (paymentReference: string, event: HistoryEvent) => void,
  now: () => number = Date.now,
) {
  return (event: Reported): void => {
    if (typeof event.paymentReference !== 'string') return;
    const entry = historyFromEvent(event, now());
    if (entry) record(event.paymentReference, entry);
  };
}
