// The status handler's answer from the ledger. A `PENDING` entry nobody has asked the gateway about
// for `recheckAfterMs` is re-queried by one poll, the one whose compare-and-set on its `checkedAt`
// lands (here or on another instance), and settled through the webhook's transition
// (`verifyAndSettle`), so `onPaid` runs once per reference whichever path wins. The other polls
// answer what they read.
import type { Gateway } from '../gateway.js';
import { withDeadline } from '../http/deadline.js';
import { errorName } from '../http/emitter.js';
import { verifyAndSettle, type PaymentHook, type VerifyEvent } from '../settle.js';
import type { Payment, PaymentStore } from '../stores.js';

type LedgerStatus = { status: Payment['state']; amount: string; currency: string };

type LedgerReaderOptions = {
  payments: PaymentStore;
  gateway: Pick<Gateway, 'query'>;
  /** Without it no poll settles a payment (the webhook handler does, with its own `onPaid`), so none re-queries. */
  onPaid: PaymentHook | undefined;
  onFailed: PaymentHook | undefined;
  emit: (event: VerifyEvent) => void;
  recheckAfterMs: number;
  /** How long a poll waits for its re-query before answering what the ledger said; the re-query goes on. */
  recheckWaitMs: number;
  now?: () => number;
};

/** The ledger's state, amount and currency for a reference (undefined when unknown), re-queried when due. */
export function createLedgerReader(options: LedgerReaderOptions): (paymentReference: string) => Promise<LedgerStatus | undefined> {
  const { payments, gateway, onPaid, emit, recheckAfterMs } = options;
  const now = options.now ?? Date.now;

  function isDue(entry: Payment): boolean {
    return onPaid !== undefined && entry.state === 'PENDING' && now() - (entry.checkedAt ?? entry.createdAt) >= recheckAfterMs;
  }

  /** Claims this interval's query for `entry`, asks the gateway and settles; what the ledger says afterwards. */
  async function recheck(entry: Payment): Promise<Payment> {
    const claim: Payment = { ...entry, checkedAt: now() };
    try {
      if (!(await payments.update(claim))) return entry; // another poll, here or elsewhere, asks this time
    } catch (error) {
      emit({ type: 'internal-error', where: 'store', paymentReference: entry.paymentReference, detail: errorName(error) });
      return entry;
    }
    const claimed: Payment = { ...claim, version: entry.version + 1 };
    const result = await verifyAndSettle(claimed, gateway, { payments, onPaid: onPaid!, onFailed: options.onFailed, emit, now });
    return result.kind === 'unverified' || result.kind === 'missing' ? claimed : result.payment;
  }

  /** The re-query's result, or `entry` once `recheckWaitMs` passed. */
  function withinWait(rechecking: Promise<Payment>, entry: Payment): Promise<Payment> {
    return withDeadline(options.recheckWaitMs, () => rechecking, () => entry);
  }

  return async (paymentReference) => {
    const entry = await payments.get(paymentReference);
    if (!entry) return undefined;
    const current = isDue(entry) ? await withinWait(recheck(entry).catch(() => entry), entry) : entry;
    return { status: current.state, amount: current.amount, currency: current.currency };
  };
}
