// What the server keeps, as interfaces every store implements: the payment ledger (one entry per payment, the source of
// truth: written before the gateway is asked, kept until nothing is owed on it). Implementations:
// memory.ts (one process; tests), sqlite.ts (`pay-widget/server/sqlite`, one machine), redis.ts
// (`pay-widget/server/redis`), postgres.ts (`pay-widget/server/postgres`).

export type Awaitable<T> = T | Promise<T>;

// ─── The payment ledger ──────────────────────────────────────────────────────────────────────────

/** What the customer and the merchant are told: the gateway's verified verdict, or none yet. */
export type PaymentState = 'PENDING' | 'SUCCESS' | 'FAILED';

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
  /** Incremented by every successful {@link PaymentStore.update}; 1 when inserted. */
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
