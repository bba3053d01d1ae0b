// Issue 24, defect 4: on the PostgreSQL ledger a slow or hung `onPaid` must not stop every payment.
// Fulfilment holds at most part of the pool (the rest is the sessions'), is given up after
// `onPaidTimeoutMs` (its transaction rolled back, its connection closed), and the webhook is answered
// without waiting for it. On a 10-connection pool, as a merchant's default `pg` Pool has.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createSandboxGateway, SANDBOX_ACCESS_TOKEN, SANDBOX_PUBLIC_KEY } from '../../src/sandbox/index.js';
import {
  createReconciler,
  createSessionHandler,
  createWebhookHandler,
  type PaidContext,
  type Payment,
} from '../../src/server/internal.js';
import {
  createPostgresStores,
  migratePostgres,
  type PostgresStoresOptions,
} from '../../src/server/stores/postgres/index.js';
import { entry } from './payment-store-contract.js';
import { skip, usePostgres } from './postgres-fixture.js';
import { deferred, newKey, ORDER, post, USSD_REQUEST } from './server-fixtures.js';
import { answer, countingGateway, ledgerEntry, notify } from './webhook-fixtures.js';

/** `promise`, or a rejection naming `what` once `ms` passed (a deadlock would otherwise hang the test). */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms)),
  );
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

describe('fulfilment on a 10-connection PostgreSQL pool', { skip, timeout: 120_000 }, () => {
  const postgres = usePostgres();
  const pools: pg.Pool[] = [];
  let observer: pg.Pool;

  before(() => {
    if (skip) return;
    observer = postgres.pool();
  });
  after(async () => {
    await Promise.all(pools.map((pool) => pool.end().catch(() => {})));
  });

  /** A merchant's pool (pg's default size, 10) with the ledger's tables on it, and the stores. */
  async function merchantPool(options: PostgresStoresOptions = {}) {
    const pool = new pg.Pool({ connectionString: postgres.server().url, max: 10 });
    pool.on('error', () => {});
    pools.push(pool);
    const tablePrefix = postgres.prefix();
    await migratePostgres(pool, { tablePrefix });
    await pool.query(`CREATE TABLE ${tablePrefix}orders (reference text PRIMARY KEY)`);
    return { pool, tablePrefix, ...createPostgresStores(pool, { ...options, tablePrefix }) };
  }

  /** Connections to the test database by state, as the server counts them. */
  async function serverConnections(): Promise<Record<string, number>> {
    const { rows } = await observer.query(
      `SELECT coalesce(state, 'none') AS state, count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() GROUP BY 1`,
    );
    return Object.fromEntries(rows.map((row) => [row.state, row.n]));
  }

  it('10 hung onPaid calls (webhooks) and a sweep of 50 leave new sessions answering as usual, and the webhooks answered', async () => {
    const { pool, idempotency, payments } = await merchantPool();
    const now = Date.now();
    const webhookReferences = Array.from({ length: 10 }, (_, index) => `hung-webhook-${index}-${now}`);
    for (const reference of webhookReferences)
      await payments.insert(ledgerEntry(reference, { initiation: 'started', createdAt: now, updatedAt: now }));
    for (let index = 0; index < 50; index++)
      await payments.insert(entry({ state: 'SUCCESS', initiation: 'started', dueAt: now - 1 }));

    const sandbox = createSandboxGateway();
    const session = createSessionHandler({
      baseUrl: 'https://sandbox.test',
      publicKey: SANDBOX_PUBLIC_KEY,
      accessToken: SANDBOX_ACCESS_TOKEN,
      order: () => ({ amount: '2500.00', callbackUrl: ORDER.callbackUrl, redirectUrl: ORDER.redirectUrl }),
      fetch: (input, init) => sandbox.fetch(input, init),
      idempotency,
      payments,
      // The merchant default is 20 s; shorter here so that today's failure is quick to see.
      attemptTimeoutMs: 5_000,
    });
    /** 20 new customers, five at a time: each answer's status and time. */
    async function sessions(): Promise<{ statuses: number[]; latencies: number[] }> {
      const statuses: number[] = [];
      const latencies: number[] = [];
      for (let round = 0; round < 4; round++) {
        const answers = await Promise.all(
          Array.from({ length: 5 }, () => timed(() => session(post(USSD_REQUEST, { 'idempotency-key': newKey() })))),
        );
        for (const { value, ms } of answers) {
          statuses.push(value.status);
          latencies.push(ms);
        }
      }
      latencies.sort((a, b) => a - b);
      return { statuses, latencies };
    }
    const quiet = await sessions();

    const hang = deferred();
    let onPaidStarted = 0;
    const onPaid = async () => {
      onPaidStarted += 1;
      await hang.promise;
    };
    const gateway = countingGateway(() => answer('00'));
    const clock = { offset: 0, now: () => Date.now() + clock.offset };
    const webhook = createWebhookHandler({ gateway, payments, onPaid, now: clock.now });
    const reconciler = createReconciler({ gateway, payments, onPaid });

    const webhooks = webhookReferences.map((reference) => timed(() => webhook(notify(reference))));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sweep = reconciler.run();
    await new Promise((resolve) => setTimeout(resolve, 500));

    const { statuses, latencies } = await sessions();
    const connections = {
      pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount },
      server: await serverConnections(),
    };
    const ms = (sorted: number[]) => ({
      p50: Math.round(percentile(sorted, 0.5)),
      p90: Math.round(percentile(sorted, 0.9)),
      max: Math.round(sorted.at(-1)!),
    });
    const figures = { quiet: ms(quiet.latencies), whileHung: ms(latencies), onPaidRunning: onPaidStarted, connections };
    console.log(`20 sessions, 5 at a time, before and while 60 onPaid hang: ${JSON.stringify(figures)}`);

    try {
      assert.deepEqual(statuses, Array(20).fill(200), 'every new customer got payment instructions');
      assert.ok(latencies.at(-1)! < 1_500, `sessions answered in ${Math.round(latencies.at(-1)!)} ms at most`);
      assert.ok(onPaidStarted < 10, `onPaid holds at most part of the pool (${onPaidStarted} running at once)`);
      const answered = await within(5_000, 'the webhooks', Promise.all(webhooks));
      // The gateway delivers each again a minute later, while onPaid still hangs.
      clock.offset += 60_000;
      const redelivered = await within(
        5_000,
        'the redeliveries',
        Promise.all(webhookReferences.map((reference) => timed(() => webhook(notify(reference))))),
      );
      console.log(
        `webhook answers: first ${JSON.stringify(answered.map(({ ms }) => Math.round(ms)))} ms, again ${JSON.stringify(redelivered.map(({ ms }) => Math.round(ms)))} ms`,
      );
      for (const { value, ms } of [...answered, ...redelivered]) {
        assert.equal(value.status, 503, 'not fulfilled yet: the gateway delivers again');
        assert.ok(ms < 2_500, `webhook answered after ${Math.round(ms)} ms, inside the gateway's 5 s`);
      }
    } finally {
      hang.resolve();
    }
    const counts = await within(30_000, 'the sweep', sweep);
    assert.equal(counts.fulfilled, 50, 'the sweep fulfilled its batch once onPaid returned');
  });

  it('an onPaid that borrows from the same pool (not db) cannot deadlock a sweep', async () => {
    const { pool, payments, tablePrefix } = await merchantPool();
    const references: string[] = [];
    for (let index = 0; index < 20; index++) {
      const owed = entry({ state: 'SUCCESS', initiation: 'started', dueAt: Date.now() - 1 });
      references.push(owed.paymentReference);
      await payments.insert(owed);
    }
    // The merchant's own pool, as an onPaid that never looked at `db` uses it.
    const onPaid = async (payment: Payment) => {
      await pool.query(`INSERT INTO ${tablePrefix}orders (reference) VALUES ($1) ON CONFLICT DO NOTHING`, [
        payment.paymentReference,
      ]);
    };
    const reconciler = createReconciler({ gateway: countingGateway(() => answer('00')), payments, onPaid });
    const counts = await within(15_000, 'the sweep (a deadlock on the pool)', reconciler.run());
    assert.equal(counts.fulfilled, 20);
    const { rows } = await observer.query(`SELECT count(*)::int AS n FROM ${tablePrefix}orders`);
    assert.equal(rows[0].n, 20);
  });

  it('gives up a hung onPaid after onPaidTimeoutMs: its writes rolled back, its connection closed, the payment owed again after its back-off', async () => {
    const { pool, payments, tablePrefix } = await merchantPool();
    const idle = entry({ state: 'SUCCESS', initiation: 'started', dueAt: Date.now() - 1 });
    const inStatement = entry({ state: 'SUCCESS', initiation: 'started', dueAt: Date.now() - 1 });
    await payments.insert(idle);
    await payments.insert(inStatement);
    const aborted: boolean[] = [];
    const onPaid = async (payment: Payment, { db, signal }: PaidContext) => {
      const client = db as pg.PoolClient;
      await client.query(`INSERT INTO ${tablePrefix}orders (reference) VALUES ($1)`, [payment.paymentReference]);
      signal?.addEventListener('abort', () => aborted.push(true));
      // One hangs in a statement, the other between statements (a slow HTTP call, say).
      if (payment.paymentReference === inStatement.paymentReference) await client.query('SELECT pg_sleep(60)');
      else await new Promise(() => {});
    };
    const events: { type: string; paymentReference?: string }[] = [];
    const reconciler = createReconciler({
      gateway: countingGateway(() => answer('00')),
      payments,
      onPaid,
      onEvent: (event) => void events.push(event),
      onPaidTimeoutMs: 400,
    });
    const started = Date.now();
    const counts = await within(10_000, 'the sweep (onPaid never returns)', reconciler.run());
    assert.ok(Date.now() - started < 5_000);
    assert.equal(counts.errors, 2);
    assert.deepEqual(
      events
        .filter((event) => event.type === 'onPaid-timeout')
        .map((event) => event.paymentReference)
        .sort(),
      [idle.paymentReference, inStatement.paymentReference].sort(),
    );
    assert.deepEqual(aborted, [true, true], "onPaid's signal aborted");
    const { rows } = await observer.query(`SELECT count(*)::int AS n FROM ${tablePrefix}orders`);
    assert.equal(rows[0].n, 0, 'what onPaid wrote through db rolled back');
    for (const reference of [idle.paymentReference, inStatement.paymentReference]) {
      const stored = (await payments.get(reference))!;
      assert.equal(stored.fulfilledAt, undefined);
      assert.equal(stored.fulfilAttempts, 1);
      assert.ok(stored.dueAt! >= started + 10_000, 'due again after the back-off');
    }
    // The transaction's connection is given back; a lease renewal (kept while the hung onPaid runs on)
    // may hold one for the moment of its query, so wait that moment out.
    for (const until = Date.now() + 2_000; pool.totalCount - pool.idleCount > 0 && Date.now() < until;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(pool.totalCount - pool.idleCount, 0, 'no client checked out');
    // The connections are closed, and the server ended the 60 s statement soon after: nothing holds the rows.
    let server = await serverConnections();
    for (
      const until = Date.now() + 5_000;
      (server.active || server['idle in transaction']) && Date.now() < until;
      server = await serverConnections()
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual([server.active ?? 0, server['idle in transaction'] ?? 0], [0, 0], JSON.stringify(server));
  });

  it('refuses a share of the pool for fulfilment that leaves no connection for sessions', () => {
    const pool = postgres.shared(); // max 30
    assert.throws(
      () => createPostgresStores(pool, { fulfilmentConnections: 30 }),
      /fulfilmentConnections \(30\) must be below the pool's max \(30\)/,
    );
    assert.throws(
      () => createPostgresStores(pool, { fulfilmentConnections: 0 }),
      /fulfilmentConnections must be a positive whole number/,
    );
    const tiny = new pg.Pool({ connectionString: postgres.server().url, max: 1 });
    pools.push(tiny);
    assert.throws(() => createPostgresStores(tiny), /give the pool max 2 or more/);
    assert.doesNotThrow(() => createPostgresStores(pool, { fulfilmentConnections: 29 }));
  });
});
