// A ledger entry: one payment, as every store keeps it (the source of truth, written before the
// gateway is asked, kept until nothing is owed on it). Its fields move only by the pure transitions
// of moves.ts, written by write.ts's compare-and-set; stores/types.ts re-exports the type.
import type { PaymentStatus } from '../../contract/rules.js';

/** What the customer and the merchant are told: the gateway's verified verdict, or none yet. */
export type PaymentState = PaymentStatus;

/**
 * Where the payment's start stands with the gateway:
 * - `asking`: recorded, the gateway is being asked (a process that dies here leaves it for the
 *   reconciler, which queries it);
 * - `started`: the gateway gave instructions (a dial code, an account): awaiting payment;
 * - `refused`: a definitive refusal, the payment never started; nothing is owed on it;
 * - `unknown`: no readable answer (time-out, 5xx, a duplicate reference): the reconciler queries it.
 *
 * Absent on entries written before the ledger came first: those were always `started`.
 */
export type Initiation = 'asking' | 'started' | 'refused' | 'unknown';

/**
 * What a person at the shop must look at, which no automatic step settles:
 * - `amount-mismatch`: the gateway reported a payment of another amount or currency (or `SM_10`,
 *   approved for part of it); the entry is not paid, `onPaid` does not run;
 * - `after-expiry`: the gateway confirmed the payment paid after it had reported it failed or
 *   expired; the entry is SUCCESS and `onPaid` runs as for any payment, with this on it.
 * `amountReceived` and `currencyReceived` are the gateway's, when it said and they differ from the
 * entry's. Stores keep an entry that has it and never expire it; a person removes it (an `update`
 * without it) once dealt with.
 */
export type PaymentReview = {
  reason: 'amount-mismatch' | 'after-expiry';
  /** When it was first recorded, ms since the epoch. */
  since: number;
  amountReceived?: string;
  currencyReceived?: string;
};

/** A fulfilment in progress: `onPaid` is running for `owner` until `until` (ms since the epoch). */
export type FulfilmentLease = { owner: string; until: number };

export type Payment = {
  paymentReference: string;
  paymentType: 'USSD' | 'TRANSFER';
  /** What the gateway was asked to charge, as sent: a decimal string such as `"5000.00"`. */
  amount: string;
  currency: string;
  state: PaymentState;
  /** Incremented by every successful `PaymentStore.update`; 1 when inserted. */
  version: number;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
  /** When the gateway was last asked about this payment (status re-query, webhook, reconciler). */
  checkedAt?: number;
  /** The gateway's last `data.code` for this payment, when it has answered a query. */
  gatewayCode?: string;
  /** The `Idempotency-Key` that started it: a retry with that key names this payment, however late. */
  idempotencyKey?: string;
  initiation?: Initiation;
  /**
   * TRANSFER: when its account stops taking money (ms since the epoch), `walletDaysActive` days
   * after the gateway opened it. The reconciler asks about it until then and on its late steps
   * after, and the memory ledger keeps it at least that long. Absent for USSD and on entries written
   * before it was kept: their schedule ends 24 h after their creation.
   */
  openUntil?: number;
  /** How many times the reconciler has queried it, for its back-off schedule. */
  checks?: number;
  /** Set once `onPaid` returned: the payment is SUCCESS and fulfilled, and `onPaid` never runs again. */
  fulfilledAt?: number;
  /** Present while a caller runs `onPaid`; a lease whose `until` has passed is free for the next caller. */
  lease?: FulfilmentLease;
  /** How many times `onPaid` was started without returning (it threw, or its process died). */
  fulfilAttempts?: number;
  /**
   * When work is next owed on this entry (a query while PENDING, `onPaid` while SUCCESS and not
   * fulfilled), ms since the epoch; absent when nothing is owed. The reconciler takes entries due by
   * now; a store never drops an entry that has it.
   */
  dueAt?: number;
  /** The reconciler's schedule ran out while the gateway still said pending: for a person to look at. */
  stale?: boolean;
  /**
   * When the gateway's verified failure was recorded (ms since the epoch): the reconciler asks again
   * 1 h, 6 h, 24 h and 72 h after it (`dueAt`), so a late payment whose webhook was lost is found.
   */
  failedAt?: number;
  /**
   * How many of the reconciler's queries in a row got no readable answer (an error status, an
   * unreadable body, no answer in time). They never use up a step of the schedule: the query is
   * made again after a back-off until an answer is read. Absent once one was.
   */
  unanswered?: number;
  /** Set when the gateway reported something a person must look at; such an entry never expires. */
  review?: PaymentReview;
  /**
   * Who paid, as the widget sent it, so a person at the shop can find the payment by it
   * (`pay-widget ledger list --search`). Never reported to `onEvent`, logged or answered.
   */
  customer?: PaymentCustomer;
  /** A person closed its review or its stale state (`pay-widget ledger resolve`): when, and their note. */
  resolved?: { at: number; note: string };
};

export type PaymentCustomer = { name?: string; phone?: string; email?: string };

/**
 * Verified and not yet fulfilled. An entry settled before fulfilment was recorded (no `fulfilledAt`
 * and none of its bookkeeping: `dueAt`, `lease`, `fulfilAttempts`) had its `onPaid` run then, by the
 * code of that time, and owes nothing: upgrading never runs `onPaid` twice for old payments.
 */
export function owesFulfilment(payment: Payment): boolean {
  if (payment.state !== 'SUCCESS' || payment.fulfilledAt !== undefined) return false;
  return payment.dueAt !== undefined || payment.lease !== undefined || payment.fulfilAttempts !== undefined;
}

/** Owed, and no live lease on it: the next caller may take it. */
export function fulfilmentFree(payment: Payment, now: number): boolean {
  return owesFulfilment(payment) && (payment.lease === undefined || payment.lease.until <= now);
}
