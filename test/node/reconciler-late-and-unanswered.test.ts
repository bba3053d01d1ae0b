// Issue 24, defects 2 and 3, as a merchant meets them, on every ledger (memory, SQLite, Redis, PostgreSQL):
// - 2: the gateway said FAILED; the customer paid later and the notification was dropped (the
//   shop's server was down for the gateway's retries). The FAILED entry is asked about again 1 h,
//   6 h, 24 h and 72 h after the failure, so the reconciler finds the late payment: `late-success`,
//   `onPaid` once.
// - 3: at the 24-hour step the query is answered 503, then 429, then garbage, then not at all (a
//   hang, cut by the reconciler's deadline). None of these uses up the step or makes the entry stale:
//   it is asked again after a back-off, and the paid answer, once read, pays it. `stale` only when
//   the gateway answered "pending" at the last step.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createClient } from 'redis';
import {
  createGateway,
  createMemoryPaymentStore,
  createReconciler,
  type Payment,
  type PaymentStore,
  type ReconcileEvent,
} from '../../src/server/internal.js';
import { nextCheckAt, RECHECK_SCHEDULE_MS } from '../../src/server/ledger/schedule.js';
import { createRedisStores } from '../../src/server/stores/redis/index.js';
import { createSqliteStores } from '../../src/server/stores/sqlite/index.js';
import { BASE_URL, fakeGateway, PUBLIC_KEY, queryAnswer } from './gateway-fixtures.js';
import { skip as noPostgres, usePostgres } from './postgres-fixture.js';
import { startRedisServer, type RedisServer } from './redis-server.js';

const T0 = 1_800_000_000_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const LAST_STEP = RECHECK_SCHEDULE_MS.length - 1;
/** What the README promises: a FAILED payment is asked about again this long after its failure. */
const AFTER_FAILURE_SCHEDULE_MS = [HOUR, 6 * HOUR, 24 * HOUR, 72 * HOUR];

/** What the gateway's query answers for a reference right now. */
type Reply = 'paid' | 'failed' | 'pending' | 503 | 429 | 'garbage' | 'hang';

let redis: RedisServer | undefined;
const clients: { destroy(): void }[] = [];
const folder = mkdtempSync(join(tmpdir(), 'pay-widget-late-'));
const files: { close(): void }[] = [];
after(async () => {
  for (const client of clients) client.destroy();
  for (const file of files) file.close();
  rmSync(folder, { recursive: true, force: true });
  await redis?.stop();
});
const postgres = usePostgres();

const ledgers: { name: string; skip: string | false; open(now: () => number): Promise<PaymentStore> }[] = [
  { name: 'memory', skip: false, open: async (now) => createMemoryPaymentStore({ now }) },
  {
    name: 'SQLite',
    skip: false,
    async open(now) {
      const stores = createSqliteStores(join(folder, `ledger-${files.length}.db`), { now });
      files.push(stores);
      return stores.payments;
    },
  },
  {
    name: 'Redis',
    skip: false,
    async open() {
      redis ??= await startRedisServer();
      const client = createClient({ url: redis.url });
      client.on('error', () => {});
      clients.push(client);
      return createRedisStores(await client.connect(), { prefix: `late-${process.pid}-${clients.length}:` }).payments;
    },
  },
  { name: 'PostgreSQL', skip: noPostgres, open: async (now) => (await postgres.stores({ now })).payments },
];

for (const ledger of ledgers) {
  describe(
    `the reconciler on the ${ledger.name} ledger (issue 24, defects 2 and 3)`,
    { skip: ledger.skip, timeout: 60_000 },
    () => {
      async function setUp() {
        const clock = { time: T0 };
        const payments = await ledger.open(() => clock.time);
        const replies = new Map<string, Reply>();
        const upstream = fakeGateway((request) => {
          const reference = decodeURIComponent(request.path.split('/').pop()!);
          const reply = replies.get(reference) ?? 'pending';
          if (reply === 'hang') return new Promise<Response>(() => {}); // never answers: the reconciler's deadline (50 ms) gives up on it
          if (typeof reply === 'number')
            return new Response(JSON.stringify({ message: 'Too busy' }), { status: reply });
          if (reply === 'garbage') return new Response('<html>upstream error</html>', { status: 200 });
          return queryAnswer({ paid: '00', failed: 'S12', pending: 'S20' }[reply], {}, reference);
        });
        const gateway = createGateway({
          baseUrl: BASE_URL,
          publicKey: PUBLIC_KEY,
          accessToken: 'token-1',
          fetch: upstream.fetch,
          timeoutMs: 200,
        });
        const paid: string[] = [];
        const events: ReconcileEvent[] = [];
        const reconciler = createReconciler({
          gateway,
          payments,
          onPaid: (payment) => void paid.push(payment.paymentReference),
          onEvent: (event) => void events.push(event),
          now: () => clock.time,
          queryTimeoutMs: 50,
          sleep: async (ms) => void (clock.time += ms),
        });
        /** A payment the session handler started at `createdAt`, as the ledger holds it after `checks` answered steps. */
        async function started(reference: string, createdAt: number, checks = 0): Promise<void> {
          const entry: Payment = {
            paymentReference: reference,
            paymentType: 'TRANSFER',
            amount: '5000.00',
            currency: 'NGN',
            state: 'PENDING',
            version: 1,
            createdAt,
            updatedAt: createdAt,
            initiation: 'started',
            checks,
            dueAt: nextCheckAt(createdAt, checks)!,
          };
          assert.ok(await payments.insert(entry));
        }
        const queries = (reference: string) =>
          upstream.seen.filter((request) => request.path.endsWith(`/${reference}`)).length;
        return { clock, payments, replies, paid, events, reconciler, started, queries };
      }

      it('finds a payment made after it FAILED, with its notification dropped: late-success, onPaid once', async () => {
        const { clock, payments, replies, paid, events, reconciler, started } = await setUp();
        await started('late-1', T0);
        replies.set('late-1', 'failed');
        clock.time = T0 + MINUTE;
        assert.equal((await reconciler.run()).failed, 1);
        const failedAt = clock.time;
        assert.equal((await payments.get('late-1'))?.state, 'FAILED');

        replies.set('late-1', 'paid'); // the customer paid after all; the gateway's webhook never arrived
        clock.time = failedAt + HOUR;
        const counts = await reconciler.run();
        assert.deepEqual([counts.checked, counts.paid, counts.fulfilled], [1, 1, 1]);
        const stored = await payments.get('late-1');
        assert.deepEqual([stored?.state, stored?.dueAt], ['SUCCESS', undefined]);
        assert.notEqual(stored?.fulfilledAt, undefined);
        assert.deepEqual(paid, ['late-1']);
        assert.deepEqual(
          events.filter((event) => event.type === 'late-success'),
          [
            {
              type: 'late-success',
              paymentReference: 'late-1',
              amount: '5000.00',
              currency: 'NGN',
              previousCode: 'S12',
            },
          ],
        );
      });

      it('asks about a FAILED payment 1 h, 6 h, 24 h and 72 h after the failure, then never again', async () => {
        const { clock, payments, replies, reconciler, started, queries } = await setUp();
        await started('late-2', T0);
        replies.set('late-2', 'failed');
        clock.time = T0 + MINUTE;
        await reconciler.run();
        const failedAt = clock.time;
        for (const offset of AFTER_FAILURE_SCHEDULE_MS) {
          clock.time = failedAt + offset - 1;
          assert.equal((await reconciler.run()).checked, 0, `not before ${offset / HOUR} h`);
          clock.time = failedAt + offset;
          assert.equal((await reconciler.run()).checked, 1, `at ${offset / HOUR} h`);
        }
        clock.time += 30 * 24 * HOUR;
        assert.equal((await reconciler.run()).checked, 0);
        assert.equal(queries('late-2'), 1 + AFTER_FAILURE_SCHEDULE_MS.length);
        const stored = await payments.get('late-2');
        assert.deepEqual([stored?.state, stored?.dueAt], ['FAILED', undefined]);
      });

      it('keeps the 24-hour step through 503, 429, garbage and a hang, and pays once the answer is read', async () => {
        const { clock, payments, replies, paid, events, reconciler, started, queries } = await setUp();
        await started('late-3', T0, LAST_STEP); // every earlier step answered "pending"
        await started('late-4', T0, LAST_STEP);
        clock.time = T0 + RECHECK_SCHEDULE_MS[LAST_STEP]!;
        for (const reply of [503, 429, 'garbage', 'hang'] as const) {
          replies.set('late-3', reply);
          replies.set('late-4', reply);
          const counts = await reconciler.run();
          assert.deepEqual([counts.checked, counts.errors, counts.stale], [2, 2, 0], String(reply));
          for (const reference of ['late-3', 'late-4']) {
            const stored = (await payments.get(reference))!;
            assert.equal(stored.state, 'PENDING', `${reference} after ${reply}`);
            assert.equal(stored.stale, undefined, `${reference} is not stale after ${reply}`);
            assert.equal(stored.checks, LAST_STEP, `${reference}: the step is not used up by ${reply}`);
            assert.ok(stored.dueAt! > clock.time, `${reference} is due again after ${reply}`);
          }
          clock.time = (await payments.get('late-3'))!.dueAt!;
        }
        assert.equal(events.filter((event) => event.type === 'stale').length, 0);
        replies.set('late-3', 'paid');
        replies.set('late-4', 'pending');
        const counts = await reconciler.run();
        assert.deepEqual([counts.checked, counts.paid, counts.stale], [2, 1, 1]);
        assert.deepEqual(paid, ['late-3']);
        assert.equal((await payments.get('late-3'))?.state, 'SUCCESS');
        const pending = await payments.get('late-4');
        assert.deepEqual(
          [pending?.state, pending?.stale, pending?.dueAt],
          ['PENDING', true, undefined],
          'stale only once the gateway answered "pending" at the last step',
        );
        assert.deepEqual(
          events
            .filter((event) => event.type === 'stale')
            .map((event) => 'paymentReference' in event && event.paymentReference),
          ['late-4'],
        );
        assert.equal(queries('late-3'), 5);
      });
    },
  );
}
