// The server's two stores, as interfaces with in-memory defaults: the idempotency store (one record
// per `Idempotency-Key`) and the payment ledger. `pay-widget/server/redis` implements both on Redis
// for several server instances.
import type { ResolvedOrder } from './order.js';

type Awaitable<T> = T | Promise<T>;

// ─── Idempotency ─────────────────────────────────────────────────────────────────────────────────

/** A stored answer: replayed with the same status and body. */
export type StoredReply = { status: number; body: string };

/**
 * What the store keeps per `Idempotency-Key`, written only after the gateway was asked.
 * `fingerprint` is the validated request, so a key reused with another body is refused.
 * `done` keeps a definitive answer (instructions, a decline, any other 4xx) to replay. `pending`
 * keeps only the order after an attempt that did not end definitively (time-out, refused connection,
 * 5xx, unreadable answer): a retry then sends the gateway the same `paymentReference`.
 */
export type IdempotencyRecord =
  | { state: 'pending'; fingerprint: string; order: ResolvedOrder }
  | { state: 'done'; fingerprint: string; order: ResolvedOrder; reply: StoredReply };

/**
 * Where idempotency records live. Every method is required: the claim is what keeps two server
 * instances (or two handlers) from both paying for one key, so a store that cannot claim atomically
 * is refused when the handler is created.
 */
export interface IdempotencyStore {
  /**
   * Claims `key` for one attempt, atomically across everything sharing the store (Redis:
   * `SET claim-key NX PX ttlMs`). True when this caller got it; false while another attempt holds
   * it. The claim lapses by itself after `ttlMs`, should `release` never come.
   */
  claim(key: string, ttlMs: number): Awaitable<boolean>;
  /** Gives up a claim taken with `claim`; called once per successful claim. */
  release(key: string): Awaitable<void>;
  get(key: string): Awaitable<IdempotencyRecord | undefined>;
  /** Keeps `record` under `key` for `ttlMs`, replacing any earlier one. */
  set(key: string, record: IdempotencyRecord, ttlMs: number): Awaitable<void>;
}

export type MemoryIdempotencyStoreOptions = {
  /**
   * Most records kept. Beyond it the oldest `done` record is dropped (its retry asks the gateway
   * again with the same paymentReference), else the oldest `pending` one; nothing is ever refused.
   * Default 10 000.
   */
  maxEntries?: number;
  /** Clock, for tests. */
  now?: () => number;
};

type Entry = { record: IdempotencyRecord; expiresAt: number };

/** Idempotency records in this process's memory: one server instance (any number of handlers in it). */
export function createMemoryIdempotencyStore(options: MemoryIdempotencyStoreOptions = {}): IdempotencyStore {
  const maxEntries = Math.max(1, options.maxEntries ?? 10_000);
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order, so its first key is the oldest write.
  const done = new Map<string, Entry>();
  const pending = new Map<string, Entry>();
  const claims = new Map<string, number>();

  function dropOldest(): void {
    const map = done.size > 0 ? done : pending;
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }

  /** Lapsed claims are dropped as new ones come, so they never outnumber the attempts in flight for long. */
  function dropLapsedClaims(time: number): void {
    for (const [key, until] of claims) if (until <= time) claims.delete(key);
  }

  return {
    claim(key, ttlMs) {
      const time = now();
      const heldUntil = claims.get(key);
      if (heldUntil !== undefined && heldUntil > time) return false;
      if (claims.size >= maxEntries) dropLapsedClaims(time);
      claims.set(key, time + ttlMs);
      return true;
    },
    release(key) {
      claims.delete(key);
    },
    get(key) {
      const map = pending.has(key) ? pending : done;
      const entry = map.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) {
        map.delete(key);
        return undefined;
      }
      return entry.record;
    },
    set(key, record, ttlMs) {
      const replaced = done.delete(key) || pending.delete(key);
      if (!replaced && done.size + pending.size >= maxEntries) dropOldest();
      (record.state === 'done' ? done : pending).set(key, { record, expiresAt: now() + ttlMs });
    },
  };
}

/** Visible ASCII, long enough that independent clients do not collide by accident. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{8,255}$/;

export function isValidIdempotencyKey(key: string): boolean {
  return IDEMPOTENCY_KEY.test(key);
}

// ─── The payment ledger ──────────────────────────────────────────────────────────────────────────

/**
 * The payment ledger: one entry per initiated payment, written by the session handler and moved
 * `PENDING → SUCCESS | FAILED` by whichever of the webhook and status handlers first learns the
 * outcome. Every change is a compare-and-set on `version`, so two instances (or two requests in one)
 * can never both settle a payment, and `onPaid` runs once.
 */

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

export const IDEMPOTENCY_STORE_METHODS = ['claim', 'release', 'get', 'set'] as const;
export const PAYMENT_STORE_METHODS = ['get', 'insert', 'update'] as const;
