// Issue 35, finding 10: `onPaid` never runs twice at once while the first call still runs in a live
// process. An `onPaid` that ignores its signal and runs past `onPaidTimeoutMs` is reported
// (`onPaid-timeout`) but keeps its lease (renewed) until it ends; and on the shared ledgers (Redis,
// PostgreSQL) a lease is reckoned by the database's clock, so instances whose clocks disagree by
// more than a lease still keep off each other's. Short leases on real timers, every ledger.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type RedisClientType } from 'redis';
import { fulfil, type FulfilEvent, type FulfilResult } from '../../src/server/fulfilment/fulfil.js';
import { createMemoryPaymentStore, type PaidContext, type Payment, type PaymentStore } from '../../src/server/index.js';
import { createRedisStores } from '../../src/server/stores/redis/index.js';
import { createSqliteStores } from '../../src/server/stores/sqlite/index.js';
import { skip as noPostgres, usePostgres } from './postgres-fixture.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { ledgerEntry } from './webhook-fixtures.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const LEASE_MS = 300;
const TIME_LIMIT_MS = 800;

/** An `onPaid` that counts its calls and how many ran at once; `runFor(call)` is how long each ignores its signal. */
function countingHook(runFor: (call: number) => number) {
  const seen = { calls: 0, running: 0, mostAtOnce: 0, startedAt: [] as number[], aborted: 0 };
  const started = performance.now();
  const onPaid = async (_payment: Payment, { signal }: PaidContext) => {
    const call = ++seen.calls;
    seen.startedAt.push(Math.round(performance.now() - started));
    seen.running += 1;
    seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.running);
    signal?.addEventListener('abort', () => (seen.aborted += 1));
    try {
      await pause(runFor(call));
    } finally {
      seen.running -= 1;
    }
  };
  return { seen, onPaid };
}

async function owedEntry(payments: PaymentStore, name: string): Promise<Payment> {
  const reference = `${name}-${crypto.randomUUID()}`;
  const now = Date.now();
  await payments.insert(
    ledgerEntry(reference, { state: 'SUCCESS', initiation: 'started', dueAt: now - 1, createdAt: now, updatedAt: now }),
  );
  return (await payments.get(reference))!;
}

/** `transactional`: the PostgreSQL ledger, where a late return was rolled back with its transaction and is run again. */
function overrunSuite(
  name: string,
  makeStore: () => PaymentStore | Promise<PaymentStore>,
  { transactional = false } = {},
) {
  describe(`an onPaid running past its time limit on the ${name} ledger`, { timeout: 30_000 }, () => {
    it('is reported at the limit, keeps its lease while it runs, and no other caller starts a second run meanwhile', async () => {
      const payments = await makeStore();
      const entry = await owedEntry(payments, 'overrun');
      // The first call runs five leases past its limit, ignoring its signal.
      const { seen, onPaid } = countingHook((call) => (call === 1 ? TIME_LIMIT_MS + 5 * LEASE_MS : 10));
      const events: FulfilEvent[] = [];
      const context = {
        payments,
        onPaid,
        emit: (event: FulfilEvent) => void events.push(event),
        leaseMs: LEASE_MS,
        onPaidTimeoutMs: TIME_LIMIT_MS,
      };
      const first = fulfil(entry, context);
      const others: FulfilResult['kind'][] = [];
      // Another caller (a poll, a delivery, a sweep) every 100 ms while the first still runs.
      while (seen.calls === 0 || seen.running > 0) {
        await pause(100);
        if (seen.running === 0) break;
        others.push((await fulfil((await payments.get(entry.paymentReference))!, context)).kind);
      }
      assert.equal((await first).kind, 'failed', 'the first caller gave up waiting at the limit');
      console.log(
        `${name}: onPaid started at ${JSON.stringify(seen.startedAt)} ms; the others while it ran: ${others.length}, ${[...new Set(others)].join()}`,
      );
      assert.equal(seen.mostAtOnce, 1, 'onPaid never ran in two callers at once');
      assert.equal(seen.calls, 1, 'no second run started while the first ran');
      assert.deepEqual(new Set(others), new Set(['busy']));
      assert.deepEqual(
        events.filter((event) => event.type === 'onPaid-timeout'),
        [{ type: 'onPaid-timeout', paymentReference: entry.paymentReference, timeoutMs: TIME_LIMIT_MS }],
      );
      assert.equal(seen.aborted, 1, "onPaid's signal aborted at the limit");

      await pause(200);
      const after = (await payments.get(entry.paymentReference))!;
      assert.equal(after.lease, undefined, 'the lease is given up once the call ended');
      if (transactional) {
        // Its transaction was closed at the limit: nothing it did was recorded, and it is owed again.
        assert.equal(after.fulfilledAt, undefined);
        assert.ok(after.dueAt! > Date.now() + 5_000, 'due again after its back-off');
        assert.equal((await fulfil(after, context)).kind, 'fulfilled');
        assert.equal(seen.calls, 2);
      } else {
        assert.notEqual(after.fulfilledAt, undefined, 'the late return is recorded: it is not run again');
        assert.equal((await fulfil(after, context)).kind, 'not-owed');
        assert.equal(seen.calls, 1);
      }
    });
  });
}

/** Two instances sharing `payments` and `elsewhere`, the second's clock `skewMs` ahead of the first's. */
function skewSuite(name: string, makeStores: () => Promise<{ payments: PaymentStore; elsewhere: PaymentStore }>) {
  describe(`instances whose clocks disagree by more than a lease, on the ${name} ledger`, { timeout: 30_000 }, () => {
    it('an instance 10 minutes ahead finds the lease of a running onPaid live, by the database’s clock', async () => {
      const { payments, elsewhere } = await makeStores();
      const entry = await owedEntry(payments, 'skew');
      // Within its limit this time, and past it too: the lease holds either way.
      const { seen, onPaid } = countingHook((call) => (call === 1 ? TIME_LIMIT_MS + 3 * LEASE_MS : 10));
      const limits = { leaseMs: LEASE_MS, onPaidTimeoutMs: TIME_LIMIT_MS, emit: () => {} };
      const first = fulfil(entry, { payments, onPaid, ...limits });
      const ahead = { payments: elsewhere, onPaid, ...limits, now: () => Date.now() + 10 * 60_000 };
      const answers: FulfilResult['kind'][] = [];
      while (seen.calls === 0) await pause(10);
      while (seen.running > 0) {
        await pause(100);
        if (seen.running === 0) break;
        answers.push((await fulfil((await elsewhere.get(entry.paymentReference))!, ahead)).kind);
      }
      await first;
      console.log(
        `${name}, skewed by 10 min: onPaid started at ${JSON.stringify(seen.startedAt)} ms; the instance ahead: ${answers.join()}`,
      );
      assert.equal(seen.mostAtOnce, 1, 'onPaid never ran in two instances at once');
      assert.equal(seen.calls, 1);
      assert.ok(answers.length >= 5 && answers.every((kind) => kind === 'busy'), answers.join());
    });
  });
}

overrunSuite('memory', () => createMemoryPaymentStore());

describe('on SQLite', () => {
  const folder = mkdtempSync(join(tmpdir(), 'pay-widget-overrun-'));
  const opened: { close(): void }[] = [];
  after(() => {
    opened.forEach((stores) => stores.close());
    rmSync(folder, { recursive: true, force: true });
  });
  overrunSuite('SQLite', () => {
    const stores = createSqliteStores(join(folder, `ledger-${opened.length}.db`));
    opened.push(stores);
    return stores.payments;
  });
});

describe('on Redis', { timeout: 60_000 }, () => {
  let redis: RedisServer;
  const clients: RedisClientType[] = [];
  let run = 0;
  const connect = async () => {
    const client: RedisClientType = createClient({ url: redis.url });
    await client.connect();
    clients.push(client);
    return client;
  };
  before(async () => {
    redis = await startRedisServer();
  });
  after(async () => {
    clients.forEach((client) => client.destroy());
    await redis.stop();
  });
  overrunSuite('Redis', async () => createRedisStores(await connect(), { prefix: `overrun-${++run}:` }).payments);
  skewSuite('Redis', async () => {
    const prefix = `skew-${++run}:`;
    return {
      payments: createRedisStores(await connect(), { prefix }).payments,
      elsewhere: createRedisStores(await connect(), { prefix }).payments,
    };
  });
});

describe('on PostgreSQL', { skip: noPostgres, timeout: 60_000 }, () => {
  const postgres = usePostgres();
  overrunSuite('PostgreSQL', async () => (await postgres.stores()).payments, { transactional: true });
  skewSuite('PostgreSQL', async () => {
    const { payments, tablePrefix } = await postgres.stores();
    return { payments, elsewhere: (await postgres.stores({ tablePrefix }, postgres.pool())).payments };
  });
});
