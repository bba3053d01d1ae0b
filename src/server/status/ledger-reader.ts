// The status handler's answer from the ledger. A `PENDING` entry nobody has asked the gateway about
// for `recheckAfterMs` (`recheckFloorMs` for a poll that asks, `recheck=1`) is re-queried by one
// poll, the one whose claim on it lands (here or on another instance: the one claim-and-verify the
// webhook uses too, settlement/claim-and-verify.ts). The other polls answer what they
// read. Past its first hour an entry is re-queried less often (`recheckInterval`): a page left open
// on a transfer account valid for days polls for days. The customer hears SUCCESS as soon as the
// payment is verified: fulfilment (`onPaid`, under its lease) runs in the background, and a poll
// that finds a verified payment still owed fulfilment (due, lease free) starts it again.
import type { Gateway } from '../gateway/gateway.js';
import { withDeadline } from '../http/deadline.js';
import { fulfil, fulfilmentFree } from '../fulfilment/fulfil.js';
import { claimAndVerify } from '../settlement/claim-and-verify.js';
import type { PaymentHook, VerifyEvent } from '../settlement/settle.js';
import type { Payment, PaymentReview, PaymentStore } from '../stores/types.js';

type LedgerStatus = { status: Payment['state']; amount: string; currency: string } & Partial<
  Omit<PaymentReview, 'since'>
>;

type LedgerReaderOptions = {
  payments: PaymentStore;
  gateway: Pick<Gateway, 'query'>;
  /** Without it no poll settles a payment (the webhook handler does, with its own `onPaid`), so none re-queries. */
  onPaid: PaymentHook | undefined;
  onFailed: PaymentHook | undefined;
  emit: (event: VerifyEvent) => void;
  recheckAfterMs: number;
  /**
   * The shorter interval for a poll that asks for a re-query (`recheck=1`, the customer says they
   * have paid): due once the gateway was not asked for this long, still once per interval.
   */
  recheckFloorMs: number;
  /** How long a poll waits for its re-query before answering what the ledger said; the re-query goes on. */
  recheckWaitMs: number;
  leaseMs: number | undefined;
  onPaidTimeoutMs: number | undefined;
  now?: () => number;
};

const HOUR = 3_600_000;

/**
 * How long a plain poll leaves a PENDING entry `ageMs` old unasked: `recheckAfterMs` in its first
 * hour, then a sixtieth of its age (a minute at one hour, 24 minutes at a day). The webhook and the
 * reconciler's own schedule still run, and the customer's "I've sent the money" (`recheck=1`) still
 * asks after `recheckFloorMs`.
 */
function recheckInterval(recheckAfterMs: number, ageMs: number): number {
  return ageMs < HOUR ? recheckAfterMs : Math.max(recheckAfterMs, ageMs / 60);
}

/** `recheck`: the poll asks for a re-query now, due after `recheckFloorMs` instead of `recheckAfterMs`. */
type ReadOptions = { recheck?: boolean };

/**
 * The ledger's state, amount and currency for a reference (undefined when unknown), re-queried when
 * due, with the reason (and what was received) when the entry is marked for review.
 */
export function createLedgerReader(
  options: LedgerReaderOptions,
): (paymentReference: string, read?: ReadOptions) => Promise<LedgerStatus | undefined> {
  const { payments, gateway, onPaid, emit, recheckAfterMs } = options;
  const now = options.now ?? Date.now;

  function isDue(entry: Payment, recheck: boolean): boolean {
    const time = now();
    const interval = recheck
      ? Math.min(options.recheckFloorMs, recheckAfterMs)
      : recheckInterval(recheckAfterMs, time - entry.createdAt);
    return onPaid !== undefined && entry.state === 'PENDING' && time - (entry.checkedAt ?? entry.createdAt) >= interval;
  }

  /** Verified, owed fulfilment, its back-off passed and no live lease: this poll may start it. */
  function fulfilmentDue(entry: Payment): boolean {
    const time = now();
    return onPaid !== undefined && fulfilmentFree(entry, time) && (entry.dueAt === undefined || entry.dueAt <= time);
  }

  /** Claims this interval's query for `entry`, asks the gateway and settles; what the ledger says afterwards. */
  async function recheck(entry: Payment): Promise<Payment> {
    const settling = {
      payments,
      onPaid: onPaid!,
      onFailed: options.onFailed,
      emit,
      now,
      leaseMs: options.leaseMs,
      onPaidTimeoutMs: options.onPaidTimeoutMs,
    };
    const asked = await claimAndVerify(entry, gateway, { ...settling, fulfilWaitMs: 0 });
    // Another poll, here or elsewhere, asks this time; or the claim could not be written.
    if (asked.kind !== 'verified') return entry;
    const { claimed, result } = asked;
    return result.kind === 'unverified' || result.kind === 'missing' ? claimed : result.payment;
  }

  /** The re-query's result, or `entry` once `recheckWaitMs` passed. */
  function withinWait(rechecking: Promise<Payment>, entry: Payment): Promise<Payment> {
    return withDeadline(
      options.recheckWaitMs,
      () => rechecking,
      () => entry,
    );
  }

  return async (paymentReference, read = {}) => {
    const entry = await payments.get(paymentReference);
    if (!entry) return undefined;
    if (fulfilmentDue(entry))
      void fulfil(entry, {
        payments,
        onPaid: onPaid!,
        emit,
        now,
        leaseMs: options.leaseMs,
        onPaidTimeoutMs: options.onPaidTimeoutMs,
      }).catch(() => {});
    const current = isDue(entry, read.recheck === true)
      ? await withinWait(
          recheck(entry).catch(() => entry),
          entry,
        )
      : entry;
    const { since: _since, ...review } = current.review ?? {};
    return { status: current.state, amount: current.amount, currency: current.currency, ...review };
  };
}
