// Both stores in this process's memory, for one server instance and for development: records are
// bounded, and ledger entries still owed work are never dropped, but for unpaid ones nobody can
// still poll or sweep (past their schedule, their account's life and their status token's life, and
// no check still owed while a reconciler sweeps), each dropped reported.
import { createEmitter } from '../http/emitter.js';
import { createEntryTable, type MemoryLedgerEvent } from './memory-entries.js';
import type { Payment, PaymentStore } from './types.js';
import type { IdempotencyRecord, IdempotencyStore } from './idempotency-types.js';

/** The stores made here, so that a handler can tell a merchant who runs live payments on them. */
const inMemory = new WeakSet<object>();

/** Made by createMemoryIdempotencyStore or createMemoryPaymentStore: lost when the process ends. */
export function isMemoryStore(store: unknown): boolean {
  return typeof store === 'object' && store !== null && inMemory.has(store);
}

function remembered<T extends object>(store: T): T {
  inMemory.add(store);
  return store;
}

// ─── Idempotency ─────────────────────────────────────────────────────────────────────────────────

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
  const secrets = new Map<string, string>();

  function dropOldest(): void {
    const map = done.size > 0 ? done : pending;
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }

  /** Lapsed claims are dropped as new ones come, so they never outnumber the attempts in flight for long. */
  function dropLapsedClaims(time: number): void {
    for (const [key, until] of claims) if (until <= time) claims.delete(key);
  }

  return remembered({
    keepSecret(name, candidate) {
      if (!secrets.has(name)) secrets.set(name, candidate);
      return secrets.get(name)!;
    },
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
  });
}

// ─── The payment ledger ──────────────────────────────────────────────────────────────────────────

export type { MemoryLedgerEvent };

export type MemoryPaymentStoreOptions = {
  /**
   * Most entries kept. Beyond it the oldest finished entry (nothing owed on it) is dropped, else the
   * oldest unpaid one past its re-query schedule, its account's life and `unpaidTtlMs` (reported as
   * `ledger-evicted`);
   * when no entry is either, `insert` throws (the session handler answers 503) rather than forget a
   * payment. Default 100 000.
   */
  maxEntries?: number;
  /** How long a finished entry (settled and fulfilled, failed, or never started) is kept; default 30 days. */
  ttlMs?: number;
  /**
   * How long an unpaid entry (PENDING, or FAILED) is kept at least, from its creation, before a full
   * ledger may drop it once its re-query schedule is over too (24 h for PENDING, 72 h after its
   * transfer account closed or after a failure) and its account takes no more money; default 24 h,
   * the status token's life. Never one the gateway is still being asked about for want of an
   * answer, nor a paid one, nor, while a reconciler sweeps this ledger, one still due a check.
   */
  unpaidTtlMs?: number;
  /** Hears each entry dropped to make room; the session handler passes its `onEvent` to its default ledger. */
  onEvent?: (event: MemoryLedgerEvent) => void;
  /** Clock, for tests. */
  now?: () => number;
};

/** The entries due by `time`, soonest first. */
function dueBy(time: number, candidates: Payment[]): Payment[] {
  return candidates.filter((payment) => payment.dueAt! <= time).sort((a, b) => a.dueAt! - b.dueAt!);
}

/** The ledger in this process's memory: one server instance, lost on restart (development, tests). */
export function createMemoryPaymentStore(options: MemoryPaymentStoreOptions = {}): PaymentStore {
  const now = options.now ?? Date.now;
  const table = createEntryTable({
    maxEntries: Math.max(1, options.maxEntries ?? 100_000),
    ttlMs: options.ttlMs ?? 30 * 24 * 60 * 60 * 1000,
    unpaidTtlMs: options.unpaidTtlMs ?? 24 * 60 * 60 * 1000,
    now,
    onEvent: createEmitter(options.onEvent),
  });
  const { entries, byKey, due, keep } = table;

  return remembered({
    ...table.views,
    get(paymentReference) {
      const payment = entries.get(paymentReference);
      return payment && structuredClone(payment);
    },
    insert(payment) {
      if (entries.has(payment.paymentReference)) return false;
      if (payment.idempotencyKey !== undefined && byKey.has(payment.idempotencyKey)) return false;
      table.makeRoom();
      keep({ ...payment, version: 1 });
      if (payment.idempotencyKey !== undefined) table.keyed(payment.idempotencyKey, payment.paymentReference);
      return true;
    },
    update(payment) {
      const stored = entries.get(payment.paymentReference);
      if (!stored || stored.version !== payment.version) return false;
      const next = { ...payment, version: payment.version + 1 };
      // The key an entry was inserted with stays its key.
      delete next.idempotencyKey;
      keep(stored.idempotencyKey === undefined ? next : { ...next, idempotencyKey: stored.idempotencyKey });
      return true;
    },
    findByIdempotencyKey(key) {
      const reference = byKey.get(key);
      const payment = reference === undefined ? undefined : entries.get(reference);
      return payment && structuredClone(payment);
    },
    markDue(paymentReference, at) {
      const stored = entries.get(paymentReference);
      if (!stored || (stored.dueAt !== undefined && stored.dueAt <= at)) return false;
      keep({ ...stored, dueAt: at, version: stored.version + 1 });
      return true;
    },
    claimDue(time, limit, holdMs) {
      table.swept(now());
      const ready = dueBy(
        time,
        [...due].map((reference) => entries.get(reference)!),
      ).slice(0, Math.max(0, limit));
      return ready.map((payment) => {
        const claimed = { ...payment, dueAt: time + holdMs, version: payment.version + 1 };
        keep(claimed);
        return structuredClone(claimed);
      });
    },
  });
}

/**
 * Both stores in this process's memory, for `createPayments({ stores })` in tests and the sandbox:
 * lost when the process ends (a live gateway with them is warned about).
 */
export function createMemoryStores(options: { now?: () => number } = {}): {
  payments: PaymentStore;
  idempotency: IdempotencyStore;
} {
  return { payments: createMemoryPaymentStore(options), idempotency: createMemoryIdempotencyStore(options) };
}
