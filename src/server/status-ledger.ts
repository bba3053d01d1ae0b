import type { Gateway, QueryOutcome } from './gateway.js';
import { errorName, settlePayment, type PaymentHook, type SettleEvent } from './settle.js';
import type { Payment, PaymentStore } from './stores.js';

/**
 * The status handler's answer from the ledger. A `PENDING` entry nobody has asked the gateway about
 * for `recheckAfterMs` is re-queried by one poll, the one whose compare-and-set on its `checkedAt`
 * lands (here or on another instance), and settled through the same transition as the webhook's, so
 * `onPaid` runs once per reference whichever path wins. The other polls answer what they read.
 */

/** What `onEvent` hears from the status handler: references, codes and amounts, never a token, key or customer detail. */
export type StatusEvent =
  | { type: 'verified'; paymentReference: string; state: Payment['state']; code: string }
  /** The re-query got no readable answer: the entry stays as it was until the next interval. */
  | { type: 'unverified'; paymentReference: string; reason: string; httpStatus?: number }
  | SettleEvent;

export type LedgerStatus = { status: Payment['state']; amount: string; currency: string };

export type LedgerReaderOptions = {
  payments: PaymentStore;
  gateway: Pick<Gateway, 'query'>;
  /** Without it no poll settles a payment (the webhook handler does, with its own `onPaid`), so none re-queries. */
  onPaid: PaymentHook | undefined;
  onFailed: PaymentHook | undefined;
  emit: (event: StatusEvent) => void;
  recheckAfterMs: number;
  /** How long a poll waits for its re-query before answering what the ledger said; the re-query goes on. */
  recheckWaitMs: number;
  now?: () => number;
};

export type LedgerReader = (paymentReference: string) => Promise<LedgerStatus | undefined>;

export function createLedgerReader(options: LedgerReaderOptions): LedgerReader {
  const { payments, gateway, onPaid, emit, recheckAfterMs } = options;
  const now = options.now ?? Date.now;

  function isDue(entry: Payment): boolean {
    return onPaid !== undefined && entry.state === 'PENDING' && now() - (entry.checkedAt ?? entry.createdAt) >= recheckAfterMs;
  }

  /** Claims this interval's query for `entry`, asks the gateway and settles; what the ledger says afterwards. */
  async function recheck(entry: Payment): Promise<Payment> {
    const reference = entry.paymentReference;
    const claim: Payment = { ...entry, checkedAt: now() };
    try {
      if (!(await payments.update(claim))) return entry; // another poll, here or elsewhere, asks this time
    } catch (error) {
      emit({ type: 'internal-error', where: 'store', paymentReference: reference, detail: errorName(error) });
      return entry;
    }
    const claimed: Payment = { ...claim, version: entry.version + 1 };
    let outcome: QueryOutcome;
    try {
      outcome = await gateway.query(reference);
    } catch {
      outcome = { kind: 'unverified', reason: 'unreadable' };
    }
    if (outcome.kind !== 'answer') {
      emit({ type: 'unverified', paymentReference: reference, reason: outcome.reason, ...(outcome.httpStatus ? { httpStatus: outcome.httpStatus } : {}) });
      return claimed;
    }
    emit({ type: 'verified', paymentReference: reference, state: outcome.state, code: outcome.code });
    const result = await settlePayment(claimed, outcome, { payments, onPaid: onPaid!, onFailed: options.onFailed, emit, now });
    return result.kind === 'missing' ? claimed : result.payment;
  }

  /** The re-query's result, or `entry` once `recheckWaitMs` passed. */
  function withinWait(rechecking: Promise<Payment>, entry: Payment): Promise<Payment> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<Payment>((resolve) => {
      timer = setTimeout(() => resolve(entry), options.recheckWaitMs);
    });
    return Promise.race([rechecking, waited]).finally(() => clearTimeout(timer));
  }

  return async (paymentReference) => {
    const entry = await payments.get(paymentReference);
    if (!entry) return undefined;
    const current = isDue(entry) ? await withinWait(recheck(entry).catch(() => entry), entry) : entry;
    return { status: current.state, amount: current.amount, currency: current.currency };
  };
}
