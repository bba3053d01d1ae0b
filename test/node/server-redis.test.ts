import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from 'redis';
import { createSandboxGateway, SANDBOX_ACCESS_TOKEN, SANDBOX_PUBLIC_KEY } from '../../src/sandbox/index.js';
import { createSessionHandler, type IdempotencyRecord, type Payment } from '../../src/server/internal.js';
import { createRedisStores } from '../../src/server/stores/redis/index.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import {
  delay,
  makeHandler,
  ORDER,
  PATIENT,
  post,
  readError,
  recordingFetch,
  slowSuccess,
  USSD_REQUEST,
} from './server-fixtures.js';

describe('createRedisStores on a real redis-server', { timeout: 60_000 }, () => {
  let redis: RedisServer;
  const clients: { destroy(): void }[] = [];

  before(async () => {
    redis = await startRedisServer();
  });

  after(async () => {
    for (const client of clients) client.destroy();
    await redis.stop();
  });

  async function connect() {
    // node-redis emits 'error' while it reconnects; an unheard 'error' event would end the process.
    const client = createClient({ url: redis.url, socket: { reconnectStrategy: () => 50 } });
    client.on('error', () => {});
    clients.push(client);
    return client.connect();
  }

  /** A separate prefix per test, on the one server. */
  let run = 0;
  const prefix = () => `test-${++run}-${process.pid}:`;

  it('claims a key once (SET NX PX), releases only its own claim, and lets a lapsed one be taken', async () => {
    const client = await connect();
    const options = { prefix: prefix() };
    const one = createRedisStores(client, options).idempotency;
    const two = createRedisStores(client, options).idempotency;
    assert.equal(await one.claim('k', 60_000), true);
    assert.equal(await two.claim('k', 60_000), false);
    await two.release('k');
    assert.equal(await two.claim('k', 60_000), false, 'two cannot release a claim it never got');
    await one.release('k');
    assert.equal(await two.claim('k', 50), true);
    await delay(80);
    assert.equal(await one.claim('k', 60_000), true, 'a lapsed claim can be taken');
    await two.release('k');
    assert.equal(await two.claim('k', 60_000), false, 'releasing a lapsed claim does not free the new holder’s');
  });

  /** The client's commands, counted: every command of createRedisStores is one sendCommand, one round trip. */
  function counted(client: Awaited<ReturnType<typeof connect>>) {
    const sent: string[] = [];
    return {
      sent,
      client: {
        sendCommand: (args: string[]) => {
          sent.push(args[0]!);
          return client.sendCommand(args);
        },
        get isReady() {
          return client.isReady;
        },
      },
    };
  }

  it('claimAndGet claims and reads the record in one round trip, as claim then get would', async () => {
    const options = { prefix: prefix() };
    const first = counted(await connect());
    const one = createRedisStores(first.client, options).idempotency;
    const two = createRedisStores(await connect(), options).idempotency;
    assert.deepEqual(await one.claimAndGet!('k', 60_000), { claimed: true, record: undefined });
    assert.equal(first.sent.length, 1);
    const record: IdempotencyRecord = { state: 'pending', fingerprint: 'f', order: ORDER };
    await two.set('k', record, 60_000);
    assert.deepEqual(await two.claimAndGet!('k', 60_000), { claimed: false, record }, 'held by one');
    await one.release('k');
    assert.deepEqual(await two.claimAndGet!('k', 60_000), { claimed: true, record }, 'released by its holder');
    await one.release('k');
    assert.equal(await one.claim('k', 60_000), false, 'a release by another store does not free it');
  });

  it('a new payment costs six Redis round trips: claim and read in one, the ledger’s key lookup, insert, answer, record, release', async () => {
    const tracked = counted(await connect());
    const { idempotency, payments } = createRedisStores(tracked.client, { prefix: prefix() });
    const sandbox = createSandboxGateway();
    const handler = createSessionHandler({
      baseUrl: 'https://sandbox.invalid',
      publicKey: SANDBOX_PUBLIC_KEY,
      accessToken: SANDBOX_ACCESS_TOKEN,
      fetch: sandbox.fetch,
      order: () => ORDER,
      idempotency,
      payments,
    });
    assert.equal((await handler(post(USSD_REQUEST))).status, 200);
    await delay(50); // the claim's release is not waited for
    // Before: SET NX, GET (record), GET + HMGET (key lookup), EVAL (insert), HMGET + EVAL (answer), SET, EVAL
    // (release).
    assert.deepEqual(tracked.sent, ['EVAL', 'EVAL', 'EVAL', 'EVAL', 'SET', 'EVAL']);
  });

  it('keeps records for the ttlMs given', async () => {
    const client = await connect();
    const { idempotency } = createRedisStores(client, { prefix: prefix() });
    const record: IdempotencyRecord = { state: 'pending', fingerprint: 'f', order: ORDER };
    await idempotency.set('k', record, 60);
    assert.deepEqual(await idempotency.get('k'), record);
    await delay(100);
    assert.equal(await idempotency.get('k'), undefined);
  });

  it('markDue keeps a finished entry, and its key, from expiring', async () => {
    const client = await connect();
    const { payments } = createRedisStores(client, { prefix: prefix(), paymentTtlMs: 100 });
    const failed: Payment = {
      paymentReference: 'ref-due',
      paymentType: 'USSD',
      amount: '2500.00',
      currency: 'NGN',
      state: 'FAILED',
      version: 1,
      createdAt: 1,
      updatedAt: 1,
      idempotencyKey: 'key-due-1',
    };
    const gone: Payment = { ...failed, paymentReference: 'ref-gone', idempotencyKey: 'key-gone-1' };
    for (const payment of [failed, gone]) assert.equal(await payments.insert(payment), true);
    assert.equal(await payments.markDue!(failed.paymentReference, 5), true);
    await delay(200);
    assert.equal(await payments.get(gone.paymentReference), undefined, 'finished: expired');
    assert.equal((await payments.get(failed.paymentReference))?.dueAt, 5);
    assert.equal((await payments.findByIdempotencyKey('key-due-1'))?.paymentReference, failed.paymentReference);
  });

  it('inserts a payment once and settles it with one compare-and-set among 20 concurrent ones', async () => {
    const client = await connect();
    const { payments } = createRedisStores(client, { prefix: prefix() });
    const payment: Payment = {
      paymentReference: 'ref-1',
      paymentType: 'USSD',
      amount: '2500.00',
      currency: 'NGN',
      state: 'PENDING',
      version: 1,
      createdAt: 1,
      updatedAt: 1,
    };
    assert.equal(await payments.insert(payment), true);
    assert.equal(await payments.insert({ ...payment, amount: '1.00' }), false);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        payments.update({ ...payment, state: i % 2 ? 'SUCCESS' : 'FAILED', updatedAt: 2 + i }),
      ),
    );
    assert.equal(results.filter(Boolean).length, 1);
    const stored = await payments.get('ref-1');
    assert.equal(stored?.version, 2);
    assert.notEqual(stored?.state, 'PENDING');
    assert.equal(await payments.update({ ...payment, version: 1 }), false, 'a stale version changes nothing');
    assert.equal(await payments.update({ ...payment, paymentReference: 'unknown' }), false);
  });

  it('two handler instances on one Redis take 100 concurrent same-key requests with one initiation and identical answers', async () => {
    const options = { prefix: prefix() };
    const stores = [createRedisStores(await connect(), options), createRedisStores(await connect(), options)];
    const upstream = recordingFetch(slowSuccess);
    const randomOrder = () => ({ ...ORDER, paymentReference: `r-${crypto.randomUUID()}` });
    const instances = stores.map(
      ({ idempotency, payments }) =>
        // Limits no loaded machine reaches: the waiting instances poll Redis until the first answer is stored.
        makeHandler({ ...PATIENT, idempotency, payments, order: randomOrder, fetch: upstream.fetch }).handler,
    );
    const key = { 'idempotency-key': `same-${crypto.randomUUID()}` };
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => instances[i % 2]!(post(USSD_REQUEST, key))),
    );
    const bodies = await Promise.all(responses.map((response) => response.text()));
    assert.equal(upstream.calls.length, 1, 'one payment');
    assert.deepEqual(new Set(responses.map((response) => response.status)), new Set([200]));
    assert.equal(new Set(bodies).size, 1, 'identical answers');
    const reference = upstream.calls[0]!.body.paymentReference as string;
    assert.equal((await stores[1]!.payments.get(reference))?.state, 'PENDING', 'recorded in the shared ledger');
  });

  it('answers 503 while Redis is down, never pays twice, and recovers when Redis is back', async () => {
    const client = await connect();
    const { idempotency, payments } = createRedisStores(client, { prefix: prefix() });
    const sandbox = createSandboxGateway();
    const seen: string[] = [];
    const gatewayFetch: typeof fetch = async (input, init) => {
      seen.push(String(JSON.parse(String(init?.body)).paymentReference));
      return sandbox.fetch(input, init);
    };
    const handler = createSessionHandler({
      baseUrl: 'https://sandbox.test',
      publicKey: SANDBOX_PUBLIC_KEY,
      accessToken: SANDBOX_ACCESS_TOKEN,
      // No paymentReference: the handler derives it from the Idempotency-Key.
      order: () => ({ amount: '2500.00', callbackUrl: ORDER.callbackUrl, redirectUrl: ORDER.redirectUrl }),
      fetch: gatewayFetch,
      idempotency,
      payments,
    });
    const paid = { 'idempotency-key': `paid-${crypto.randomUUID()}` };
    const first = await handler(post(USSD_REQUEST, paid));
    assert.equal(first.status, 200);
    const firstBody = await first.text();

    await redis.stop();
    while (client.isReady) await delay(10);
    for (const headers of [paid, { 'idempotency-key': `new-${crypto.randomUUID()}` }]) {
      const response = await handler(post(USSD_REQUEST, headers));
      await readError(response.clone(), 503, 'server_busy');
      assert.ok(response.headers.get('retry-after'));
    }
    assert.equal(seen.length, 1, 'nothing reached the gateway while Redis was down');

    await redis.start();
    while (!client.isReady) await delay(20);
    // This Redis kept nothing (no persistence): the retry asks again, naming the same payment. With
    // no record of the first initiation it is a first initiation to this server (no `retry: true`),
    // so the gateway (the sandbox, as spec/gateway-companion.md §5) answers a duplicate reference:
    // never a second payment; the ledger records it PENDING and the query decides.
    const retry = await handler(post(USSD_REQUEST, paid));
    await readError(retry, 422, 'duplicate_reference');
    const reference = JSON.parse(firstBody).data.payments.paymentReference;
    assert.equal((await payments.get(reference))?.state, 'PENDING');
    assert.equal(new Set(seen).size, 1, 'one payment reference for the key, however often asked');
    const fresh = await handler(post(USSD_REQUEST));
    assert.equal(fresh.status, 200, 'new payments work again');
  });

  it('refuses something that is not a node-redis client', () => {
    assert.throws(() => createRedisStores({} as never), /createRedisStores: pass a node-redis client/);
  });
});
