/**
 * The payment ledger: one entry per initiated payment, written by the session handler and moved
 * `PENDING → SUCCESS | FAILED` by whichever of the webhook and status handlers first learns the
 * outcome. Every change is a compare-and-set on `version`, so two instances (or two requests in one)
 * can never both settle a payment, and `onPaid` runs once.
 */

type Awaitable<T> = T | Promise<T>;

export type PaymentState = 'PENDING' | 'SUCCESS' | 'FAILED';

export type Payment = {
  paymentReference: string;
  paymentType: 'USSD' | 'TRANSFER';
  /** What the gateway was asked to charge, as sent: a decimal string such as `"5000.00"`. */
  amount: string;
  currency: string;
  state: PaymentState;
  /** Incremented by every successful {@link PaymentStore.update}; 1 when inserted. */
  version: number;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
  /** When the gateway was last asked about this payment (status re-query or webhook verification). */
  checkedAt?: number;
  /** The gateway's last `data.code` for this payment, when it has answered a query. */
  gatewayCode?: string;
};

export interface PaymentStore {
  get(paymentReference: string): Awaitable<Payment | undefined>;
  /** Adds a payment with `version: 1`. False, changing nothing, when the reference is already recorded. */
  insert(payment: Payment): Awaitable<boolean>;
  /**
   * Replaces the entry only while its stored `version` is still `payment.version`, storing it with
   * `version + 1`. True when it did; false when the entry changed meanwhile or does not exist.
   */
  update(payment: Payment): Awaitable<boolean>;
}

export type MemoryPaymentStoreOptions = {
  /** How long an entry is kept after its last change; default 30 days. */
  ttlMs?: number;
  /** Clock, for tests. */
  now?: () => number;
};

/** The ledger in this process's memory: one server instance, lost on restart. */
export function createMemoryPaymentStore(options: MemoryPaymentStoreOptions = {}): PaymentStore {
  const ttlMs = options.ttlMs ?? 30 * 24 * 60 * 60 * 1000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, { payment: Payment; expiresAt: number }>();

  function live(paymentReference: string): Payment | undefined {
    const entry = entries.get(paymentReference);
    if (entry && entry.expiresAt <= now()) entries.delete(paymentReference);
    return entries.get(paymentReference)?.payment;
  }

  function keep(payment: Payment): void {
    entries.set(payment.paymentReference, { payment: structuredClone(payment), expiresAt: now() + ttlMs });
  }

  return {
    get(paymentReference) {
      const payment = live(paymentReference);
      return payment && structuredClone(payment);
    },
    insert(payment) {
      if (live(payment.paymentReference)) return false;
      keep({ ...payment, version: 1 });
      return true;
    },
    update(payment) {
      const stored = live(payment.paymentReference);
      if (!stored || stored.version !== payment.version) return false;
      keep({ ...payment, version: payment.version + 1 });
      return true;
    },
  };
}
