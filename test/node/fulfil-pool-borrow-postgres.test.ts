// Issue 35, finding 5: on PostgreSQL's default share (`fulfilmentConnections` left alone), fulfilments
// whose `onPaid` reads through the app's own pool (not `db`) must leave connections for customers.
// Each such fulfilment holds two connections at once: its transaction's, and the one its read
// borrowed. Five slow ones at once on a 10-connection pool (pg's default) spent it all.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { createSandboxGateway, SANDBOX_ACCESS_TOKEN, SANDBOX_PUBLIC_KEY } from '../../src/sandbox/index.js';
import { createSessionHandler, createStatusHandler, createWebhookHandler } from '../../src/server/internal.js';
import { createPostgresStores, migratePostgres } from '../../src/server/stores/postgres/index.js';
import { skip, usePostgres } from './postgres-fixture.js';
import { newKey, post, STATUS_SECRET, statusTokenFor, USSD_REQUEST } from './server-fixtures.js';
import { answer, countingGateway, ledgerEntry, notify } from './webhook-fixtures.js';

/** How long each `onPaid`'s read through the pool takes: a slow report, a lock it waits on. */
const SLOW_READ_S = 8;

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: Math.round(performance.now() - started) };
}

describe(
  'onPaid reading through the app pool while fulfilments hold their connections',
  { skip, timeout: 120_000 },
  () => {
    const postgres = usePostgres();
    const pools: pg.Pool[] = [];
    after(async () => {
      await Promise.all(pools.map((pool) => pool.end().catch(() => {})));
    });

    it('five such fulfilments at once on a 10-connection pool: a new session and a status poll still answer at once', async () => {
      const pool = new pg.Pool({ connectionString: postgres.server().url, max: 10 });
      pool.on('error', () => {});
      pools.push(pool);
      const tablePrefix = postgres.prefix();
      await migratePostgres(pool, { tablePrefix });
      const { idempotency, payments } = createPostgresStores(pool, { tablePrefix });

      const now = Date.now();
      const paid = Array.from({ length: 5 }, (_, index) => `borrow-${index}-${now}`);
      for (const reference of paid)
        await payments.insert(ledgerEntry(reference, { initiation: 'started', createdAt: now, updatedAt: now }));
      const polled = `borrow-polled-${now}`;
      await payments.insert(ledgerEntry(polled, { initiation: 'started', createdAt: now, updatedAt: now }));

      let reading = 0;
      let returned = 0;
      const onPaid = async () => {
        reading += 1;
        await pool.query(`SELECT pg_sleep(${SLOW_READ_S})`);
        returned += 1;
      };
      const webhook = createWebhookHandler({ gateway: countingGateway(() => answer('00')), payments, onPaid });
      const sandbox = createSandboxGateway();
      const session = createSessionHandler({
        baseUrl: 'https://sandbox.test',
        publicKey: SANDBOX_PUBLIC_KEY,
        accessToken: SANDBOX_ACCESS_TOKEN,
        order: () => ({
          amount: '2500.00',
          callbackUrl: 'https://shop.test/paid',
          redirectUrl: 'https://shop.test/done',
        }),
        fetch: (input, init) => sandbox.fetch(input, init),
        idempotency,
        payments,
        // Under the read's length, so that a session waiting for it fails instead of passing late.
        attemptTimeoutMs: (SLOW_READ_S - 2) * 1_000,
      });
      const status = createStatusHandler({
        statusSecret: STATUS_SECRET,
        payments,
        gateway: countingGateway(() => answer('S20')),
      });

      const deliveries = paid.map((reference) => webhook(notify(reference)));
      while (reading < 4) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const token = await statusTokenFor(polled);
      const [customer, poll] = await Promise.all([
        timed(() => session(post(USSD_REQUEST, { 'idempotency-key': newKey() }))),
        timed(() =>
          status(new Request(`https://shop.test/pay/status?paymentReference=${polled}&statusToken=${token}`)),
        ),
      ]);
      const inUse = pool.totalCount - pool.idleCount;
      console.log(
        `while ${reading} onPaid read through the pool (${inUse} of 10 connections checked out, ${pool.waitingCount} waiting):` +
          ` session ${customer.value.status} in ${customer.ms} ms, status ${poll.value.status} in ${poll.ms} ms`,
      );
      assert.equal(customer.value.status, 200, 'the new customer got payment instructions');
      assert.equal(poll.value.status, 200, 'the status poll was answered');
      assert.ok(customer.ms < 2_000 && poll.ms < 2_000, `answered in normal time (${customer.ms} ms, ${poll.ms} ms)`);

      await Promise.all(deliveries);
      for (const until = Date.now() + 4 * SLOW_READ_S * 1_000; returned < paid.length && Date.now() < until;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (const reference of paid)
        assert.notEqual((await payments.get(reference))?.fulfilledAt, undefined, `${reference} fulfilled in the end`);
    });
  },
);
