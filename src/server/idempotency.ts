import type { ResolvedOrder } from './order.js';

/** A stored answer: replayed with the same status and body. */
export type StoredReply = { status: number; body: string };

/**
 * What the store keeps per `Idempotency-Key`. `fingerprint` is the validated request, so a key
 * reused with another body is refused. `pending` keeps only the order after an attempt that did not
 * end definitively (time-out, unreachable gateway, 5xx, unreadable answer): a retry then sends the
 * gateway the same `paymentReference` instead of starting a second payment. `done` keeps a
 * definitive answer (instructions or a decline) to replay.
 */
export type IdempotencyRecord =
  | { state: 'pending'; fingerprint: string; order: ResolvedOrder }
  | { state: 'done'; fingerprint: string; order: ResolvedOrder; reply: StoredReply };

/**
 * Where idempotency records live. The in-memory default serves one process (several handlers in it
 * may share one); several server instances share one store (Redis, a database) that should also
 * implement `reserve`/`release`.
 *
 * A store must not drop a `pending` record to make room: its retry would resolve a new order and may
 * start a second payment. When it cannot keep one more, `set` throws an
 * {@link IdempotencyStoreFullError} and the request is answered 503 `server_busy`.
 */
export interface IdempotencyStore {
  get(key: string): IdempotencyRecord | undefined | Promise<IdempotencyRecord | undefined>;
  set(key: string, record: IdempotencyRecord): void | Promise<void>;
  /**
   * Optional: claims the key for one attempt across instances (for example Redis `SET key NX PX`,
   * with an expiry longer than `attemptTimeoutMs`), false when another attempt holds it. The handler
   * takes the claim before it reads the record; while another attempt holds it, the handler reads
   * the record again at short intervals (a finished answer is replayed) and answers 409
   * `idempotency_key_in_use` only when the claim is still held after the wait.
   */
  reserve?(key: string): boolean | Promise<boolean>;
  /** Gives up a claim taken with `reserve`; called once per successful `reserve`. */
  release?(key: string): void | Promise<void>;
}

/** Thrown by {@link IdempotencyStore.set} when the store is full of unfinished records. */
export class IdempotencyStoreFullError extends Error {
  constructor(message = 'The idempotency store is full of unfinished records.') {
    super(message);
    this.name = 'IdempotencyStoreFullError';
  }
}

export type MemoryIdempotencyStoreOptions = {
  /** How long a record lives; default 24 hours. */
  ttlMs?: number;
  /**
   * Beyond this many records the oldest finished ones are dropped; unfinished (`pending`) ones are
   * never dropped before they expire, and when only they fill the store a new one is refused with
   * an {@link IdempotencyStoreFullError}. Default 10 000.
   */
  maxEntries?: number;
  /** How long a `reserve` claim lasts if it is never released; default 2 minutes. */
  lockTtlMs?: number;
  /** Clock, for tests. */
  now?: () => number;
};

type Entry = { record: IdempotencyRecord; expiresAt: number };

export function createMemoryIdempotencyStore(
  options: MemoryIdempotencyStoreOptions = {},
): Required<IdempotencyStore> {
  const ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
  const maxEntries = Math.max(1, options.maxEntries ?? 10_000);
  const lockTtlMs = options.lockTtlMs ?? 2 * 60 * 1000;
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order, so its first key is the oldest write.
  const done = new Map<string, Entry>();
  const pending = new Map<string, Entry>();
  const locks = new Map<string, number>();
  // One live iterator walks `done` in that order as entries are evicted. A fresh `done.keys()` per
  // eviction would step over every slot already deleted at the front of the table on each call
  // (until V8 compacts it): ~5 µs per write once the store is full, against well under 1 µs this way.
  let oldestDone = done.keys();

  function evictOldestDone(): boolean {
    let next = oldestDone.next();
    // A Map iterator that has once reported `done` stays done; start over from the front.
    if (next.done) {
      oldestDone = done.keys();
      next = oldestDone.next();
    }
    if (next.done) return false;
    done.delete(next.value);
    return true;
  }

  /** Pending entries expire in write order, so the expired ones are at the front. */
  function dropExpiredPending(): void {
    const time = now();
    for (const [key, entry] of pending) {
      if (entry.expiresAt > time) break;
      pending.delete(key);
    }
  }

  function makeRoom(): void {
    if (done.size + pending.size < maxEntries || evictOldestDone()) return;
    dropExpiredPending();
    if (done.size + pending.size >= maxEntries) throw new IdempotencyStoreFullError();
  }

  return {
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
    set(key, record) {
      const replaced = done.delete(key) || pending.delete(key);
      if (!replaced) makeRoom();
      (record.state === 'done' ? done : pending).set(key, { record, expiresAt: now() + ttlMs });
    },
    reserve(key) {
      const time = now();
      const heldUntil = locks.get(key);
      if (heldUntil !== undefined && heldUntil > time) return false;
      if (locks.size >= maxEntries) for (const [other, until] of locks) if (until <= time) locks.delete(other);
      locks.set(key, time + lockTtlMs);
      return true;
    },
    release(key) {
      locks.delete(key);
    },
  };
}

/** Visible ASCII, long enough that independent clients do not collide by accident. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{8,255}$/;

export function isValidIdempotencyKey(key: string): boolean {
  return IDEMPOTENCY_KEY.test(key);
}
