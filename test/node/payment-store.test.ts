// The PaymentStore contract on each store this package ships; PostgreSQL's run is in
// payment-store-postgres.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type RedisClientType } from 'redis';
import { createMemoryPaymentStore } from '../../src/server/stores/memory.js';
import { createRedisStores } from '../../src/server/stores/redis/index.js';
import { entry, paymentStoreContract } from './payment-store-contract.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

describe('the PaymentStore contract: memory', () => {
  paymentStoreContract(({ now }) => createMemoryPaymentStore({ now }));
});

describe('the PaymentStore contract: Redis', { timeout: 60_000 }, () => {
  let redis: RedisServer;
  let client: RedisClientType;
  let run = 0;

  before(async () => {
    redis = await startRedisServer();
    client = createClient({ url: redis.url });
    await client.connect();
  });

  after(async () => {
    client.destroy();
    await redis.stop();
  });

  paymentStoreContract(() => createRedisStores(client, { prefix: `contract-${++run}:` }).payments);

  it('gives an entry’s history the entry’s time to live, so it goes with it, and none while the entry is kept for good', async () => {
    const prefix = `history-ttl-${++run}:`;
    const payments = createRedisStores(client, { prefix, paymentTtlMs: 60_000 }).payments;
    const finished = entry({ state: 'FAILED', initiation: 'started' });
    const owed = entry({ state: 'SUCCESS', dueAt: 5 });
    for (const payment of [finished, owed]) {
      await payments.insert(payment);
      await payments.appendHistory!(payment.paymentReference, { at: 1, what: 'created' });
    }
    const ttl = async (reference: string) =>
      Number(await client.sendCommand(['PTTL', `${prefix}payment-history:${reference}`]));
    assert.ok((await ttl(finished.paymentReference)) > 0 && (await ttl(finished.paymentReference)) <= 60_000);
    assert.equal(await ttl(owed.paymentReference), -1, 'kept as long as the entry: for good');
  });
});
