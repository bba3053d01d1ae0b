// The PaymentStore contract on each store this package ships; PostgreSQL's run is in
// payment-store-postgres.test.ts.
import { after, before, describe } from 'node:test';
import { createClient, type RedisClientType } from 'redis';
import { createMemoryPaymentStore } from '../../src/server/stores/memory.js';
import { createRedisStores } from '../../src/server/stores/redis/index.js';
import { paymentStoreContract } from './payment-store-contract.js';
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
});
