// Issue 24, defect 5: `onPaid` never runs in two callers at once for one reference, on every ledger. The lease on the
// entry is renewed (a heartbeat) while `onPaid` runs; past `onPaidTimeoutMs` the caller reports
// `onPaid-timeout` and aborts `onPaid`'s signal, and (issue 35) keeps renewing the lease until the
// call ends. Short leases on real timers; the back-off is passed by moving the handlers' clock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type RedisClientType } from 'redis';
import {
  createMemoryPaymentStore,
  createReconciler,
  createWebhookHandler,
  type PaidContext,
  type Payment,
  type PaymentStore,
} from '../../src/server/internal.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedisStores } from '../../src/server/stores/redis/index.js';
import { createSqliteStores } from '../../src/server/stores/sqlite/index.js';
import { skip as noPostgres, usePostgres } from './postgres-fixture.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { deferred } from './server-fixtures.js';
import { answer, countingGateway, ledgerEntry, notify } from './webhook-fixtures.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What every caller of `onPaid` shares: the store, a clock the test can move, and what `onPaid` and `onEvent` saw. */
function merchant(payments: PaymentStore, limits: { leaseMs: number; onPaidTimeoutMs: number }) {
  const clock = { offset: 0, now: () => Date.now() + clock.offset };
  const seen = { calls: 0, running: 0, mostAtOnce: 0, aborted: 0, events: [] as { type: string }[] };
  let body: (call: number, signal: AbortSignal | undefined) => Promise<void> = async () => {};
  const onPaid = async (_payment: Payment, context: PaidContext) => {
    const { signal } = context as PaidContext & { signal?: AbortSignal };
    const call = ++seen.calls;
    seen.running += 1;
    seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.running);
    signal?.addEventListener('abort', () => (seen.aborted += 1));
    try {
      await body(call, signal);
    } finally {
      seen.running -= 1;
    }
  };
  const onEvent = (event: { type: string }) => void seen.events.push(event);
  const gateway = countingGateway(() => answer('00'));
  const shared = { gateway, payments, onPaid, onEvent, now: clock.now, ...limits };
  return {
    clock,
    seen,
    setBody: (next: typeof body) => (body = next),
    webhook: createWebhookHandler({ ...shared, requeryAfterMs: 0 }),
    reconciler: createReconciler(shared),
  };
}

/** `transactional`: the PostgreSQL ledger, whose row lock is the lease and whose time limit closes the transaction. */
function leaseSuite(
  name: string,
  makeStore: () => PaymentStore | Promise<PaymentStore>,
  { transactional = false } = {},
) {
  describe(`the fulfilment lease on the ${name} ledger`, { timeout: 30_000 }, () => {
    it('renews the lease while an onPaid longer than it runs: neither a sweep nor a webhook runs it beside it', async () => {
      const payments = await makeStore();
      const reference = `lease-long-${crypto.randomUUID()}`;
      await payments.insert(
        ledgerEntry(reference, { initiation: 'started', createdAt: Date.now(), updatedAt: Date.now() }),
      );
      const shop = merchant(payments, { leaseMs: 300, onPaidTimeoutMs: 10_000 });
      shop.setBody(async () => void (await pause(1_500))); // five leases long
      const first = shop.webhook(notify(reference));
      while (shop.seen.calls === 0) await pause(10);
      // Every 150 ms, a sweep and a delivery of the notification, as another instance would send them.
      const others: Promise<unknown>[] = [];
      for (let elapsed = 0; elapsed < 1_600; elapsed += 150) {
        await pause(150);
        others.push(shop.reconciler.run(), shop.webhook(notify(reference)));
      }
      await Promise.all([first, ...others]);
      assert.equal(shop.seen.mostAtOnce, 1, 'onPaid never ran in two callers at once');
      assert.equal(shop.seen.calls, 1, 'and ran once');
      const stored = (await payments.get(reference))!;
      assert.notEqual(stored.fulfilledAt, undefined);
      assert.equal(stored.lease, undefined);
      assert.equal(
        shop.seen.events.some((event) => event.type === 'onPaid-timeout'),
        false,
      );
    });

    it('past onPaidTimeoutMs reports onPaid-timeout and aborts its signal, keeps the lease while the call runs on, and only after it ended does another caller run it', async () => {
      const payments = await makeStore();
      const reference = `lease-limit-${crypto.randomUUID()}`;
      await payments.insert(
        ledgerEntry(reference, { initiation: 'started', createdAt: Date.now(), updatedAt: Date.now() }),
      );
      const shop = merchant(payments, { leaseMs: 300, onPaidTimeoutMs: 1_000 });
      const release = deferred();
      // The first ignores its signal until the test lets it end, then throws.
      shop.setBody(async (call) => {
        if (call > 1) return;
        await release.promise;
        throw new Error('the warehouse call failed at last');
      });
      void shop.webhook(notify(reference));
      while (shop.seen.calls === 0) await pause(10);
      await pause(600); // two leases later, inside the time limit
      await shop.reconciler.run();
      await shop.webhook(notify(reference));
      assert.equal(shop.seen.calls, 1, 'the renewed lease kept them off');

      const deadline = Date.now() + 3_000;
      while (!shop.seen.events.some((event) => event.type === 'onPaid-timeout') && Date.now() < deadline)
        await pause(20);
      assert.deepEqual(
        shop.seen.events.filter((event) => event.type === 'onPaid-timeout'),
        [{ type: 'onPaid-timeout', paymentReference: reference, timeoutMs: 1_000 }],
      );
      assert.equal(shop.seen.aborted, 1, "onPaid's signal aborted at the limit");
      await pause(900); // three leases past the limit: a lease left to lapse would have lapsed
      await shop.reconciler.run();
      await shop.webhook(notify(reference));
      const held = (await payments.get(reference))!;
      assert.equal(held.fulfilledAt, undefined);
      assert.ok(held.lease, 'the lease is kept while the call runs on');
      assert.equal(shop.seen.calls, 1, 'no second run beside the first');

      release.resolve();
      await pause(200);
      const given = (await payments.get(reference))!;
      assert.equal(given.lease, undefined, 'the lease given up once the call ended');
      assert.ok(given.dueAt! > shop.clock.now() + 5_000, 'due again after the back-off');
      await shop.reconciler.run();
      assert.equal(shop.seen.calls, 1, 'not before its back-off passed');

      shop.clock.offset += 10 * 60_000;
      const counts = await shop.reconciler.run();
      assert.equal(counts.fulfilled, 1);
      assert.equal(shop.seen.calls, 2);
      assert.equal(shop.seen.mostAtOnce, 1);
      // Attempts started: both, under a lease; in a transaction, the one that did not commit.
      assert.equal((await payments.get(reference))!.fulfilAttempts, transactional ? 1 : 2);
    });
  });
}

leaseSuite('memory', () => createMemoryPaymentStore());

describe('on SQLite', () => {
  const folder = mkdtempSync(join(tmpdir(), 'pay-widget-lease-'));
  const opened: { close(): void }[] = [];
  after(() => {
    opened.forEach((stores) => stores.close());
    rmSync(folder, { recursive: true, force: true });
  });
  let files = 0;
  leaseSuite('SQLite', () => {
    const stores = createSqliteStores(join(folder, `ledger-${++files}.db`));
    opened.push(stores);
    return stores.payments;
  });
});

describe('on Redis', { timeout: 60_000 }, () => {
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
  leaseSuite('Redis', () => createRedisStores(client, { prefix: `lease-${++run}:` }).payments);
});

describe('on PostgreSQL', { skip: noPostgres, timeout: 60_000 }, () => {
  const postgres = usePostgres();
  leaseSuite('PostgreSQL', async () => (await postgres.stores()).payments, { transactional: true });
});
