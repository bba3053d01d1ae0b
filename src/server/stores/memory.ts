// Both stores in this process's memory, for one server instance and for development: records are
// bounded, and ledger entries still owed work are never dropped, but for unpaid ones nobody can
// still poll or sweep (past their schedule, their account's life and their status token's life, and
// no check still owed while a reconciler sweeps), each dropped reported.
import { createEmitter } from '../http/emitter.js';
import { RECHECK_SCHEDULE_MS, scheduleEndsAt } from '../ledger/schedule.js';
import { isFinished } from './finished.js';
import { memoryLedgerViews } from './memory-ledger.js';
import type { Payment, PaymentState, PaymentStore } from './types.js';
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

/** What the in-memory ledger tells `onEvent`: an unpaid entry it dropped to make room. */
export type MemoryLedgerEvent = {
  type: 'ledger-evicted';
  paymentReference: string;
  state: PaymentState;
  createdAt: number;
};

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

/** A reconciler that has not taken due entries for this long is taken to be gone: their `dueAt` is nobody's to honour. */
const SWEEPER_GONE_MS = 24 * 60 * 60 * 1000;

/**
 * Unpaid, nobody working on it, past its re-query schedule, its account's life and `unpaidTtlMs`:
 * no poll can still read it (its status token expired), no transfer can still reach it, and no
 * sweep still asks about it. Never a paid entry (its fulfilment may be owed), nor one whose query is
 * retried for want of an answer, nor, while a reconciler sweeps (`sweeping`), one still due a check:
 * its last step may be due the very moment its schedule ends.
 */
function isAbandoned(payment: Payment, time: number, unpaidTtlMs: number, sweeping: boolean): boolean {
  if (payment.state === 'SUCCESS' || payment.lease !== undefined || payment.unanswered) return false;
  if (sweeping && payment.dueAt !== undefined) return false;
  return time >= Math.max(scheduleEndsAt(payment), payment.openUntil ?? 0, payment.createdAt + unpaidTtlMs);
}

function full(maxEntries: number): never {
  throw new Error(`the memory ledger holds ${maxEntries} payments still owed work (maxEntries)`);
}

/** The oldest entry `isAbandoned`, of `entries` in the order they were inserted (the oldest first). */
function oldestAbandoned(
  entries: Iterable<Payment>,
  time: number,
  unpaidTtlMs: number,
  sweeping: boolean,
): Payment | undefined {
  const youngest = Math.max(unpaidTtlMs, RECHECK_SCHEDULE_MS.at(-1)!);
  for (const payment of entries) {
    if (payment.createdAt + youngest > time) return undefined; // every later one is younger still
    if (isAbandoned(payment, time, unpaidTtlMs, sweeping)) return payment;
  }
  return undefined;
}

/** The ledger in this process's memory: one server instance, lost on restart (development, tests). */
export function createMemoryPaymentStore(options: MemoryPaymentStoreOptions = {}): PaymentStore {
  const maxEntries = Math.max(1, options.maxEntries ?? 100_000);
  const ttlMs = options.ttlMs ?? 30 * 24 * 60 * 60 * 1000;
  const unpaidTtlMs = options.unpaidTtlMs ?? 24 * 60 * 60 * 1000;
  const now = options.now ?? Date.now;
  const onEvent = createEmitter(options.onEvent);
  const entries = new Map<string, Payment>();
  const byKey = new Map<string, string>();
  // Finished entries in the order they finished (a Map iterates in insertion order): the oldest first.
  const finished = new Map<string, number>();
  const due = new Set<string>();
  // When a reconciler last took due entries here (claimDue): while one sweeps, a due check is kept for it.
  let sweptAt = Number.NEGATIVE_INFINITY;
  const { forget: forgetHistory, ...views } = memoryLedgerViews(entries);

  function forget(reference: string): void {
    forgetHistory(reference);
    const payment = entries.get(reference);
    if (payment?.idempotencyKey !== undefined) byKey.delete(payment.idempotencyKey);
    entries.delete(reference);
    finished.delete(reference);
    due.delete(reference);
  }

  function keep(payment: Payment): void {
    const stored = structuredClone(payment);
    entries.set(stored.paymentReference, stored);
    finished.delete(stored.paymentReference);
    if (isFinished(stored)) finished.set(stored.paymentReference, now());
    if (stored.dueAt === undefined) due.delete(stored.paymentReference);
    else due.add(stored.paymentReference);
  }

  function makeRoom(): void {
    const time = now();
    for (const [reference, finishedAt] of finished) {
      if (finishedAt + ttlMs > time) break;
      forget(reference);
    }
    if (entries.size < maxEntries) return;
    const oldest = finished.keys().next();
    if (!oldest.done) return forget(oldest.value);
    const sweeping = time - sweptAt < SWEEPER_GONE_MS;
    const { paymentReference, state, createdAt } =
      oldestAbandoned(entries.values(), time, unpaidTtlMs, sweeping) ?? full(maxEntries);
    forget(paymentReference);
    onEvent({ type: 'ledger-evicted', paymentReference, state, createdAt });
  }

  return remembered({
    ...views,
    get(paymentReference) {
      const payment = entries.get(paymentReference);
      return payment && structuredClone(payment);
    },
    insert(payment) {
      if (entries.has(payment.paymentReference)) return false;
      if (payment.idempotencyKey !== undefined && byKey.has(payment.idempotencyKey)) return false;
      makeRoom();
      keep({ ...payment, version: 1 });
      if (payment.idempotencyKey !== undefined) byKey.set(payment.idempotencyKey, payment.paymentReference);
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
      sweptAt = Math.max(sweptAt, now());
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
