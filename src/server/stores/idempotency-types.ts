// The idempotency store's contract: one record per `Idempotency-Key`, a cache of answers (the
// payment ledger's contract, the source of truth, is types.ts). Implementations: memory.ts,
// sqlite/idempotency.ts, postgres/idempotency.ts, redis/index.ts.
import type { ResolvedOrder } from '../session/order.js';
import type { Awaitable } from './types.js';

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
  /**
   * Optional: `claim(key, ttlMs)` and then `get(key)` as one step (Redis: one script, one round
   * trip). The session handler uses it when present; `claimed` is what `claim` would answer, and a
   * claim taken here is given up with `release` like any other.
   */
  claimAndGet?(key: string, ttlMs: number): Awaitable<{ claimed: boolean; record: IdempotencyRecord | undefined }>;
  /**
   * Optional: keeps `candidate` as the secret called `name` unless one is kept already, and returns
   * the one kept, the same to every instance sharing the store, never expiring. `createPayments`
   * keeps its status-token secret here when it is given none, so tokens survive a restart; a store
   * without it needs `statusSecret`. Kept beside the idempotency records under a key no
   * `Idempotency-Key` can be ({@link secretRecordKey}).
   */
  keepSecret?(name: string, candidate: string): Awaitable<string>;
}

/** Where a store keeps the secret `name`: a space, which no valid Idempotency-Key has, keeps it apart. */
export function secretRecordKey(name: string): string {
  return `pay-widget secret ${name}`;
}

// The shape of an `Idempotency-Key`.
/** Visible ASCII, long enough that independent clients do not collide by accident. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{8,255}$/;

export function isValidIdempotencyKey(key: string): boolean {
  return IDEMPOTENCY_KEY.test(key);
}

/** What the session handler needs of an idempotency store; one that lacks any is refused. */
export const IDEMPOTENCY_STORE_METHODS = ['claim', 'release', 'get', 'set'] as const;
