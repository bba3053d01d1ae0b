// What fulfilment speaks: the merchant's hook and what it is given, what it reports, what it needs
// and what it answers. fulfil.ts runs it; lease-writes.ts moves the entry around it.
import type { Payment } from '../ledger/entry.js';
import type { PaymentStore } from '../stores/types.js';

/**
 * What `onPaid` gets besides the payment. `db`: what `onPaid` writes through it commits with the
 * mark that it ran, exactly once, or (when it throws) not at all. With the PostgreSQL ledger, the
 * transaction's client (`pg`'s `PoolClient`); with the SQLite ledger, a `SqlitePaidDb`
 * (`pay-widget/server/sqlite`) whose writes are queued and committed with the mark after `onPaid`
 * returned; undefined with other stores. Name it as `Db` (`PaymentHook<SqlitePaidDb>`) to have it
 * typed. `signal`: aborted when `onPaidTimeoutMs` passed and the caller stopped waiting: pass it
 * to `fetch` and the like, and stop.
 */
export type PaidContext<Db = unknown> = { db?: Db; signal?: AbortSignal };

/**
 * The merchant's hook. `onPaid` runs until it returns without throwing (again with back-off after a
 * throw, or after its process died), so make it idempotent by `paymentReference`.
 */
export type PaymentHook<Db = unknown> = {
  // Written as a method so that a hook typed for one ledger's `db` is taken wherever a hook is.
  hook(payment: Payment, context: PaidContext<Db>): void | Promise<void>;
}['hook'];

/** What fulfilment reports: the hook's or the store's failure (the error's class name only). */
export type FulfilEvent =
  /** `onPaid` returned and the ledger recorded it: it never runs again for this reference. */
  | { type: 'fulfilled'; paymentReference: string; attempts: number }
  /**
   * `onPaid` did not return within `timeoutMs`: its signal was aborted and its PostgreSQL transaction
   * rolled back. Should it run on, its lease is kept (no other caller runs it meanwhile) until it
   * ends; then the payment is owed again after its back-off, unless it returned (without PostgreSQL).
   */
  | { type: 'onPaid-timeout'; paymentReference: string; timeoutMs: number }
  | { type: 'internal-error'; where: 'onPaid' | 'store'; paymentReference: string; detail: string };

export type FulfilContext = {
  payments: PaymentStore;
  onPaid: PaymentHook;
  emit: (event: FulfilEvent) => void;
  /**
   * How long a lease lives unrenewed (renewed every third of it while `onPaid` runs); default 60 s.
   * Reckoned by the ledger's clock when it has one (`payments.clock`: PostgreSQL, Redis), else by `now`.
   */
  leaseMs?: number;
  /** How long `onPaid` is waited for; default 30 s. */
  onPaidTimeoutMs?: number;
  now?: () => number;
};

/**
 * `fulfilled`: `onPaid` returned and the entry says so (here or by whoever raced this call);
 * `not-owed`: the entry is not SUCCESS, or already fulfilled; `busy`: another caller holds the lease,
 * or the ledger could not be written; `failed`: `onPaid` threw, and the entry is due again later.
 * `payment` is the entry as last known.
 */
export type FulfilResult = { kind: 'fulfilled' | 'not-owed' | 'busy' | 'failed'; payment: Payment };
