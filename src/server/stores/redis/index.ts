// `pay-widget/server/redis`: the idempotency store and the payment ledger in Redis, for several
// server instances, on one node-redis client (the `redis` package, an optional peer dependency):
//
//   import { createClient } from 'redis';
//   import { createRedisStores } from 'pay-widget/server/redis';
//   const client = await createClient({ url: process.env.REDIS_URL }).connect();
//   const { idempotency, payments } = createRedisStores(client);
//
// Claims are `SET NX PX`; idempotency records expire with `PX`. A ledger entry is a hash (`json`,
// `version`, `dueAt`), with its key's reference beside it and a sorted set of due entries; every ledger write is one
// Lua script, so it is atomic in Redis; fulfilment leases go by Redis's clock (`TIME`), not each instance's. An entry
// still owed work never expires; a finished one expires after `paymentTtlMs`. Enable persistence (`appendonly yes`) for
// a ledger in Redis: a restart without it forgets payments the gateway may still confirm. Nothing here imports `redis`:
// any client with node-redis's `sendCommand` works. While the client is not connected every call fails at once (the
// session handler answers 503), instead of waiting in node-redis's offline queue.
import { isFinished } from '../finished.js';
import { redisLedgerViews } from './ledger.js';
import type { Payment, PaymentStore } from '../types.js';
import type { IdempotencyRecord, IdempotencyStore } from '../idempotency-types.js';

/** What is used of a node-redis client (v4 and later): `sendCommand`, and `isReady` when it has one. */
export type RedisClientLike = {
  sendCommand(args: string[]): Promise<unknown>;
  readonly isReady?: boolean;
};

export type RedisStoresOptions = {
  /** Prepended to every key; default `pay-widget:`. */
  prefix?: string;
  /** How long a finished ledger entry (nothing owed on it) is kept; default 30 days. */
  paymentTtlMs?: number;
  /** Clock, for tests: fulfilment leases are then reckoned by it. Default: Redis's own (`TIME`), one for every instance. */
  now?: () => number;
};

export type RedisStores = { idempotency: IdempotencyStore; payments: PaymentStore };

/** KEYS: the claim, the record. ARGV: the claim's value, its time to live. Whether it was claimed, and the record. */
const CLAIM_AND_GET = `
local claimed = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
return { claimed and 1 or 0, redis.call('GET', KEYS[2]) }`;

/** KEYS: the key's index. ARGV: the entries' key prefix. The fields of the entry the key started, if any. */
const FIND_BY_KEY = `
local reference = redis.call('GET', KEYS[1])
if not reference then return false end
return redis.call('HMGET', ARGV[1] .. reference, 'json', 'version', 'dueAt', 'key')`;

/** KEYS: the secret. ARGV: the candidate. The secret kept, the candidate when none was (Redis 6 has no SET NX GET). */
const KEEP_SECRET = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX') then return ARGV[1] end
return redis.call('GET', KEYS[1])`;

/** Deletes the claim only while it is still this caller's (it may have lapsed and been taken since). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

// KEYS: the entry's hash, the due set, its key's index. ARGV: reference, JSON, dueAt or '', time to
// live or '' (finished), idempotency key or ''. Writes version 1.
const INSERT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if ARGV[5] ~= '' and redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'json', ARGV[2], 'version', 1, 'dueAt', ARGV[3], 'key', ARGV[5])
if ARGV[5] ~= '' then redis.call('SET', KEYS[3], ARGV[1]) end
if ARGV[3] ~= '' then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1]) end
if ARGV[4] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return 1`;

// KEYS and ARGV as INSERT but the last (the key stays the one inserted), for an entry whose stored
// version is still ARGV[5]; the key's index follows the entry's lifetime.
const COMPARE_AND_SET = `
local stored = redis.call('HMGET', KEYS[1], 'version', 'key')
if not stored[1] or tonumber(stored[1]) ~= tonumber(ARGV[5]) then return 0 end
redis.call('HSET', KEYS[1], 'json', ARGV[2], 'version', tonumber(ARGV[5]) + 1, 'dueAt', ARGV[3])
if ARGV[3] ~= '' then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1]) else redis.call('ZREM', KEYS[2], ARGV[1]) end
local index = ARGV[6] .. (stored[2] or '')
if ARGV[4] ~= '' then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  if stored[2] and stored[2] ~= '' then redis.call('PEXPIRE', index, ARGV[4]) end
else
  redis.call('PERSIST', KEYS[1])
  if stored[2] and stored[2] ~= '' then redis.call('PERSIST', index) end
end
return 1`;

// KEYS: the due set. ARGV: now, limit, holdMs, the entries' key prefix. Moves each due entry's
// dueAt (in the hash and the set) and version, and returns the hashes' fields.
const CLAIM_DUE = `
local references = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local claimed = {}
local holdUntil = tonumber(ARGV[1]) + tonumber(ARGV[3])
for _, reference in ipairs(references) do
  local key = ARGV[4] .. reference
  if redis.call('EXISTS', key) == 1 then
    redis.call('HSET', key, 'dueAt', holdUntil)
    redis.call('HINCRBY', key, 'version', 1)
    redis.call('ZADD', KEYS[1], holdUntil, reference)
    table.insert(claimed, redis.call('HMGET', key, 'json', 'version', 'dueAt', 'key'))
  else
    redis.call('ZREM', KEYS[1], reference)
  end
end
return claimed`;

// KEYS: the entry's hash, the due set. ARGV: reference, the time it is due by, the key index's
// prefix. Moves dueAt (in the hash and the set) and version unless already due by then; an entry
// due never expires, nor does its key's index.
const MARK_DUE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local stored = redis.call('HMGET', KEYS[1], 'dueAt', 'key')
if stored[1] and stored[1] ~= '' and tonumber(stored[1]) <= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], 'dueAt', ARGV[2])
redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('PERSIST', KEYS[1])
if stored[2] and stored[2] ~= '' then redis.call('PERSIST', ARGV[3] .. stored[2]) end
return 1`;

const FIELDS = ['json', 'version', 'dueAt', 'key'];

/** The stored fields back into an entry: `version`, `dueAt` and the key live beside the JSON, for the scripts. */
function fromFields([json, version, dueAt, key]: unknown[]): Payment | undefined {
  if (typeof json !== 'string') return undefined;
  const payment = JSON.parse(json) as Payment;
  payment.version = Number(version);
  if (typeof dueAt === 'string' && dueAt !== '') payment.dueAt = Number(dueAt);
  if (typeof key === 'string' && key !== '') payment.idempotencyKey = key;
  return payment;
}

type Send = (args: string[]) => Promise<unknown>;

export function createRedisStores(client: RedisClientLike, options: RedisStoresOptions = {}): RedisStores {
  if (typeof client?.sendCommand !== 'function') {
    throw new TypeError('createRedisStores: pass a node-redis client, e.g. await createClient({ url }).connect()');
  }
  const prefix = options.prefix ?? 'pay-widget:';
  const paymentTtlMs = options.paymentTtlMs ?? 30 * 24 * 60 * 60 * 1000;
  const send: Send = (args) => {
    if (client.isReady === false) return Promise.reject(new Error('Redis is not connected'));
    return client.sendCommand(args);
  };
  const payments = {
    ...redisPaymentStore(send, prefix, paymentTtlMs, options.now),
    ...redisLedgerViews(send, prefix, fromFields),
  };
  return { idempotency: redisIdempotencyStore(send, prefix), payments };
}

function redisIdempotencyStore(send: Send, prefix: string): IdempotencyStore {
  // Each claim's value says whose it is, so a release never deletes another instance's claim.
  const owner = crypto.randomUUID();
  const claimsHeld = new Map<string, string>();
  let claimCount = 0;
  const parse = (text: unknown) => (typeof text === 'string' ? (JSON.parse(text) as IdempotencyRecord) : undefined);
  return {
    async keepSecret(name, candidate) {
      return String(await send(['EVAL', KEEP_SECRET, '1', `${prefix}secret:${name}`, candidate]));
    },
    async claim(key, ttlMs) {
      const value = `${owner}:${++claimCount}`;
      const reply = await send(['SET', `${prefix}claim:${key}`, value, 'NX', 'PX', String(Math.ceil(ttlMs))]);
      if (reply === null) return false;
      claimsHeld.set(key, value);
      return true;
    },
    async claimAndGet(key, ttlMs) {
      const value = `${owner}:${++claimCount}`;
      const [claimed, text] = (await send([
        'EVAL',
        CLAIM_AND_GET,
        '2',
        `${prefix}claim:${key}`,
        `${prefix}idem:${key}`,
        value,
        String(Math.ceil(ttlMs)),
      ])) as [unknown, unknown];
      if (Number(claimed) === 1) claimsHeld.set(key, value);
      return { claimed: Number(claimed) === 1, record: parse(text) };
    },
    async release(key) {
      const value = claimsHeld.get(key);
      if (value === undefined) return;
      claimsHeld.delete(key);
      await send(['EVAL', RELEASE, '1', `${prefix}claim:${key}`, value]);
    },
    async get(key) {
      return parse(await send(['GET', `${prefix}idem:${key}`]));
    },
    async set(key, record, ttlMs) {
      await send(['SET', `${prefix}idem:${key}`, JSON.stringify(record), 'PX', String(Math.ceil(ttlMs))]);
    },
  };
}

function redisPaymentStore(send: Send, prefix: string, ttlMs: number, now: (() => number) | undefined): PaymentStore {
  const paymentKey = (reference: string) => `${prefix}payment:${reference}`;
  const keyIndex = (key: string) => `${prefix}payment-key:${key}`;
  const dueSet = `${prefix}payments-due`;

  /** KEYS and ARGV as INSERT and COMPARE_AND_SET take them. */
  function writeArgs(payment: Payment): { keys: string[]; argv: string[] } {
    const { version: _version, dueAt, idempotencyKey: _key, ...rest } = payment;
    const key = payment.idempotencyKey ?? '';
    const due = dueAt === undefined ? '' : String(Math.ceil(dueAt));
    const ttl = isFinished(payment) ? String(ttlMs) : '';
    return {
      keys: [paymentKey(payment.paymentReference), dueSet, keyIndex(key)],
      argv: [payment.paymentReference, JSON.stringify(rest), due, ttl],
    };
  }

  const payments: PaymentStore = {
    async get(paymentReference) {
      return fromFields((await send(['HMGET', paymentKey(paymentReference), ...FIELDS])) as unknown[]);
    },
    async insert(payment) {
      const { keys, argv } = writeArgs(payment);
      return Number(await send(['EVAL', INSERT, '3', ...keys, ...argv, payment.idempotencyKey ?? ''])) === 1;
    },
    async update(payment) {
      const { keys, argv } = writeArgs(payment);
      return (
        Number(await send(['EVAL', COMPARE_AND_SET, '3', ...keys, ...argv, String(payment.version), keyIndex('')])) ===
        1
      );
    },
    async findByIdempotencyKey(key) {
      const fields = await send(['EVAL', FIND_BY_KEY, '1', keyIndex(key), paymentKey('')]);
      return Array.isArray(fields) ? fromFields(fields) : undefined;
    },
    async markDue(paymentReference, at) {
      const args = [paymentReference, String(Math.floor(at)), keyIndex('')];
      return Number(await send(['EVAL', MARK_DUE, '2', paymentKey(paymentReference), dueSet, ...args])) === 1;
    },
    async claimDue(now, limit, holdMs) {
      const args = [
        String(Math.floor(now)),
        String(Math.max(0, Math.floor(limit))),
        String(Math.ceil(holdMs)),
        paymentKey(''),
      ];
      const rows = (await send(['EVAL', CLAIM_DUE, '1', dueSet, ...args])) as unknown[][];
      return rows.map(fromFields).filter((payment) => payment !== undefined);
    },
    // Redis's own clock (TIME: seconds, microseconds), one for every instance: fulfilment leases go by it.
    async clock() {
      if (now) return now();
      const [seconds, microseconds] = (await send(['TIME'])) as [string, string];
      return Number(seconds) * 1000 + Math.floor(Number(microseconds) / 1000);
    },
  };
  return payments;
}
