// `pay-widget/server/redis`: the idempotency store and the payment ledger in Redis, for several
// server instances, on one node-redis client (the `redis` package, an optional peer dependency):
//
//   import { createClient } from 'redis';
//   import { createRedisStores } from 'pay-widget/server/redis';
//   const client = await createClient({ url: process.env.REDIS_URL }).connect();
//   const { idempotency, payments } = createRedisStores(client);
//
// Claims are `SET NX PX`; records and ledger entries expire with `PX`; the ledger's compare-and-set
// is one Lua script, so it is atomic in Redis. Nothing here imports `redis`: any client with
// node-redis's `sendCommand` works. While the client is not connected every call fails at once
// (the session handler answers 503), instead of waiting in node-redis's offline queue.
import type { IdempotencyRecord, IdempotencyStore, Payment, PaymentStore } from './stores.js';

/** What is used of a node-redis client (v4 and later): `sendCommand`, and `isReady` when it has one. */
export type RedisClientLike = {
  sendCommand(args: string[]): Promise<unknown>;
  readonly isReady?: boolean;
};

export type RedisStoresOptions = {
  /** Prepended to every key; default `pay-widget:`. */
  prefix?: string;
  /** How long a ledger entry is kept after its last change; default 30 days. */
  paymentTtlMs?: number;
};

export type RedisStores = { idempotency: IdempotencyStore; payments: PaymentStore };

/** Deletes the claim only while it is still this caller's (it may have lapsed and been taken since). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** Replaces the entry only while its stored version is still ARGV[1]. */
const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if not current then return 0 end
if cjson.decode(current).version ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`;

export function createRedisStores(client: RedisClientLike, options: RedisStoresOptions = {}): RedisStores {
  if (typeof client?.sendCommand !== 'function') {
    throw new TypeError('createRedisStores: pass a node-redis client, e.g. await createClient({ url }).connect()');
  }
  const prefix = options.prefix ?? 'pay-widget:';
  const paymentTtlMs = String(options.paymentTtlMs ?? 30 * 24 * 60 * 60 * 1000);
  // Each claim's value says whose it is, so a release never deletes another instance's claim.
  const owner = crypto.randomUUID();
  const claimsHeld = new Map<string, string>();
  let claimCount = 0;

  function send(args: string[]): Promise<unknown> {
    if (client.isReady === false) return Promise.reject(new Error('Redis is not connected'));
    return client.sendCommand(args);
  }

  const idempotency: IdempotencyStore = {
    async claim(key, ttlMs) {
      const value = `${owner}:${++claimCount}`;
      const reply = await send(['SET', `${prefix}claim:${key}`, value, 'NX', 'PX', String(Math.ceil(ttlMs))]);
      if (reply === null) return false;
      claimsHeld.set(key, value);
      return true;
    },
    async release(key) {
      const value = claimsHeld.get(key);
      if (value === undefined) return;
      claimsHeld.delete(key);
      await send(['EVAL', RELEASE, '1', `${prefix}claim:${key}`, value]);
    },
    async get(key) {
      const text = await send(['GET', `${prefix}idem:${key}`]);
      return typeof text === 'string' ? (JSON.parse(text) as IdempotencyRecord) : undefined;
    },
    async set(key, record, ttlMs) {
      await send(['SET', `${prefix}idem:${key}`, JSON.stringify(record), 'PX', String(Math.ceil(ttlMs))]);
    },
  };

  const paymentKey = (reference: string) => `${prefix}payment:${reference}`;
  const payments: PaymentStore = {
    async get(paymentReference) {
      const text = await send(['GET', paymentKey(paymentReference)]);
      return typeof text === 'string' ? (JSON.parse(text) as Payment) : undefined;
    },
    async insert(payment) {
      const entry = JSON.stringify({ ...payment, version: 1 });
      return (await send(['SET', paymentKey(payment.paymentReference), entry, 'NX', 'PX', paymentTtlMs])) !== null;
    },
    async update(payment) {
      const entry = JSON.stringify({ ...payment, version: payment.version + 1 });
      const args = [String(payment.version), entry, paymentTtlMs];
      return Number(await send(['EVAL', COMPARE_AND_SET, '1', paymentKey(payment.paymentReference), ...args])) === 1;
    },
  };

  return { idempotency, payments };
}
