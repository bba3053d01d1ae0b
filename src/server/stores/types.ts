// What the server keeps, as interfaces every store implements: the payment ledger (one entry per payment, the source of
// truth: written before the gateway is asked, kept until nothing is owed on it). Implementations:
// memory.ts (one process; tests), sqlite.ts (`pay-widget/server/sqlite`, one machine), redis.ts
// (`pay-widget/server/redis`), postgres.ts (`pay-widget/server/postgres`).

export type Awaitable<T> = T | Promise<T>;

// ─── The payment ledger ──────────────────────────────────────────────────────────────────────────

export type {
  FulfilmentLease,
  Initiation,
  Payment,
  PaymentCustomer,
  PaymentReview,
  PaymentState,
} from '../ledger/entry.js';
import type { Payment, PaymentState } from '../ledger/entry.js';

/**
 * The ledger. Every change is a compare-and-set on `version`, so two instances (or two requests in
 * one) never both settle a payment, and the reconciler's claims keep two sweepers off one entry.
 * Entries still owed work (`dueAt`), unsettled, or marked for `review` are never expired.
 */
export interface PaymentStore {
  get(paymentReference: string): Awaitable<Payment | undefined>;
  /**
   * Adds a payment with `version: 1`. False, changing nothing, when its reference (or its
   * `idempotencyKey`) is already recorded.
   */
  insert(payment: Payment): Awaitable<boolean>;
  /**
   * Replaces the entry only while its stored `version` is still `payment.version`, storing it with
   * `version + 1`. True when it did; false when the entry changed meanwhile or does not exist.
   */
  update(payment: Payment): Awaitable<boolean>;
  /** The payment started with this `Idempotency-Key`, if the ledger has one. */
  findByIdempotencyKey(key: string): Awaitable<Payment | undefined>;
  /**
   * Takes up to `limit` entries whose `dueAt` is at or before `now`, soonest first, and moves each
   * one's `dueAt` to `now + holdMs` (a compare-and-set, `version + 1`) in one atomic step, so that no
   * other sweeper takes it meanwhile. Returns the entries as stored after that move.
   */
  claimDue(now: number, limit: number, holdMs: number): Awaitable<Payment[]>;
  /** Optional: adds `event` to the entry's history (bounded, kept as long as the entry); nothing for an unknown reference. */
  appendHistory?(paymentReference: string, event: HistoryEvent): Awaitable<void>;
  /** Optional: the entry's history, oldest first; empty for an unknown reference. */
  history?(paymentReference: string): Awaitable<HistoryEvent[]>;
  /** Optional: the entries `query` selects, newest first (`pay-widget ledger list`). */
  list?(query: LedgerQuery): Awaitable<Payment[]>;
  /**
   * Makes the entry due by `at` for the reconciler's next sweep: its `dueAt` moves to `at` (and it
   * no longer expires) when it has none or a later one, `version + 1`, in one atomic step. True when
   * it moved; false when it was already due by then, or is absent (on PostgreSQL, also while its row
   * is locked by a fulfilment). What the webhook does with a notification it could not verify now.
   * Optional: without it the webhook does the same with `update`.
   */
  markDue?(paymentReference: string, at: number): Awaitable<boolean>;
  /**
   * Optional, for a ledger shared by instances (PostgreSQL, Redis): its own clock, ms since the
   * epoch. Fulfilment leases (`lease.until`) are then written and compared by it, so instances
   * whose clocks disagree agree on when a lease lapses; without it, by each instance's `now`.
   */
  clock?(): Promise<number>;
  /**
   * Optional, for stores with transactions (PostgreSQL): runs `work` inside the transaction that
   * marks the entry fulfilled, under a lease on the entry (written before, by the store's clock)
   * and its row lock, so what `work` writes through `db` commits with the mark, exactly once.
   * `not-owed` when the entry is not SUCCESS or is already fulfilled, `busy` when another caller
   * holds it; `work`'s throw rolls back and is rethrown, after the entry's `fulfilAttempts` and
   * `dueAt` were moved for the next try. With `limits.timeoutMs`, `work` still running after it is
   * given up: `signal` aborts, the transaction is rolled back (its connection closed, so a late
   * write through `db` fails), an `OnPaidTimeoutError` thrown, and the lease kept (renewed every
   * third of `limits.leaseMs`, default 60 s) until `work` ends; then the entry is moved for the next try.
   */
  fulfilInTransaction?(
    paymentReference: string,
    work: (payment: Payment, db: unknown, signal: AbortSignal) => Promise<void>,
    retryAt: (attempts: number) => number,
    limits?: { timeoutMs?: number; leaseMs?: number },
  ): Promise<'fulfilled' | 'not-owed' | 'busy'>;
  /**
   * Optional, for stores whose transaction must not stay open while `onPaid` runs (SQLite, where
   * it locks the whole file): a `db` for one run of `onPaid`, under the lease, that queues its
   * writes, and the compare-and-set that marks the entry fulfilled with them in one transaction.
   */
  queueWrites?(): QueuedWrites;
}

/** `onPaid`'s queued writes, applied with the fulfilment mark or never. */
export type QueuedWrites = {
  /** What `onPaid` is given as `context.db`. */
  db: unknown;
  /**
   * `update` with the queued writes after it, in one transaction, all or nothing: true when both
   * committed; false when the entry changed meanwhile; `{ failed }` when a queued write threw (its
   * error). No write may be queued once this was called.
   */
  update(payment: Payment): Promise<boolean | { failed: unknown }>;
};

/** What the handlers and the reconciler need of a payment store; one that lacks any is refused. */
export const PAYMENT_STORE_METHODS = ['get', 'insert', 'update', 'findByIdempotencyKey', 'claimDue'] as const;

// ─── What a person reads of the ledger (src/server/ledger/) ──────────────────────────────────────

/** What happened, in one word a person can read in a list. */
export type HistoryWhat =
  | 'created'
  | 'instructions'
  | 'initiation-failed'
  | 'query-answered'
  | 'query-unanswered'
  | 'paid'
  | 'failed'
  | 'late-success'
  | 'review'
  | 'stale'
  | 'onPaid-started'
  | 'onPaid-returned'
  | 'onPaid-threw'
  | 'onPaid-timed-out'
  | 'retry-requested'
  | 'rechecked'
  | 'resolved';

export type HistoryEvent = {
  /** When, ms since the epoch. */
  at: number;
  what: HistoryWhat;
  /** A code, an amount, an error's class name, a person's note: never a customer detail. */
  detail?: string;
  /** Who: the server (absent) or a person through `pay-widget ledger`. */
  by?: 'person';
};

export type LedgerQuery = {
  /** Only entries a person must look at (`attentionOf`, ledger/queries.ts). */
  needsAttention?: boolean;
  state?: PaymentState;
  /** Created at or after, ms since the epoch. */
  since?: number;
  /** Created before, ms since the epoch. */
  until?: number;
  /** Part of the reference, the customer's name or e-mail (any case), or of their phone number's digits. */
  search?: string;
  /** At most this many, the newest first; default 200 (DEFAULT_LIST_LIMIT, ledger/queries.ts). */
  limit?: number;
};
