// Issue 15, defect 3: a lost webhook and a closed tab no longer leave a payment PENDING for ever.
// `createReconciler` against the sandbox gateway (in process, no webhooks: every webhook is lost),
// on the memory ledger and on a real redis-server, with an injected clock.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from 'redis';
import {
  createSandboxGateway,
  SANDBOX_ACCESS_TOKEN,
  SANDBOX_PUBLIC_KEY,
  type SandboxGateway,
} from '../../src/sandbox/index.js';
import {
  createGateway,
  createMemoryPaymentStore,
  createReconciler,
  type Gateway,
  type Payment,
  type PaymentStore,
  type ReconcileEvent,
  type ReconcilerOptions,
} from '../../src/server/internal.js';
import { nextCheckAt, RECHECK_SCHEDULE_MS } from '../../src/server/ledger/schedule.js';
import { createRedisStores } from '../../src/server/stores/redis/index.js';
import { initiationBody } from './gateway-fixtures.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { delay } from './server-fixtures.js';

const T0 = 1_800_000_000_000;
const MINUTE = 60_000;

/** `now`: the test's clock, which the Redis ledger's leases then go by too (else Redis's own). */
type Ledger = { name: string; open(now: () => number): Promise<PaymentStore> };

let redis: RedisServer | undefined;
const clients: { destroy(): void }[] = [];
let prefixes = 0;

const ledgers: Ledger[] = [
  { name: 'memory', open: async () => createMemoryPaymentStore() },
  {
    name: 'Redis',
    async open(now) {
      redis ??= await startRedisServer();
      const client = createClient({ url: redis.url });
      client.on('error', () => {});
      clients.push(client);
      return createRedisStores(await client.connect(), { prefix: `reconciler-${process.pid}-${++prefixes}:`, now })
        .payments;
    },
  },
];

after(async () => {
  for (const client of clients) client.destroy();
  await redis?.stop();
});

for (const ledger of ledgers) {
  describe(`createReconciler on the ${ledger.name} ledger`, { timeout: 60_000 }, () => {
    let sandbox: SandboxGateway;
    let gateway: Gateway;

    before(() => {
      sandbox = createSandboxGateway();
      gateway = createGateway({
        baseUrl: 'https://sandbox.invalid',
        publicKey: SANDBOX_PUBLIC_KEY,
        accessToken: SANDBOX_ACCESS_TOKEN,
        fetch: sandbox.fetch,
      });
    });
    after(() => sandbox.close());

    /** A ledger, a clock that moves only when told (or when the reconciler waits), and what the hooks heard. */
    async function setUp(options: Partial<ReconcilerOptions> = {}) {
      const clock = { time: T0 };
      const payments = await ledger.open(() => clock.time);
      const paid: string[] = [];
      const events: ReconcileEvent[] = [];
      const queried: string[] = [];
      const queriedAt: number[] = [];
      const counting: Pick<Gateway, 'query'> = {
        query: (reference, callOptions) => {
          queried.push(reference);
          queriedAt.push(clock.time);
          return gateway.query(reference, callOptions);
        },
      };
      const reconciler = createReconciler({
        gateway: counting,
        payments,
        onPaid: (payment) => void paid.push(payment.paymentReference),
        onEvent: (event) => void events.push(event),
        now: () => clock.time,
        // Each wait ends in its own turn, in the order the waits began, moving the clock to its end.
        sleep: (ms) => {
          const until = clock.time + ms;
          return new Promise<void>((resolve) =>
            setImmediate(() => resolve(void (clock.time = Math.max(clock.time, until)))),
          );
        },
        ...options,
      });
      /** What the session handler does: the ledger first (due at the schedule's first step), then the gateway. */
      async function startPayment(reference: string, amount = '5000.00'): Promise<void> {
        const createdAt = clock.time;
        const entry: Payment = {
          paymentReference: reference,
          paymentType: 'TRANSFER',
          amount,
          currency: 'NGN',
          state: 'PENDING',
          version: 1,
          createdAt,
          updatedAt: createdAt,
          initiation: 'started',
          dueAt: nextCheckAt(createdAt, 0)!,
        };
        assert.ok(await payments.insert(entry));
        assert.equal(
          (await gateway.initiate({ ...initiationBody(reference), amount, publicKey: SANDBOX_PUBLIC_KEY })).kind,
          'success',
        );
      }
      return { payments, clock, paid, events, queried, queriedAt, reconciler, startPayment };
    }

    it('pays a payment whose webhook was lost and whose tab closed: onPaid once, then nothing is due', async () => {
      const { payments, clock, paid, reconciler, startPayment } = await setUp();
      await startPayment('rec-paid');
      sandbox.setStatus('rec-paid', 'SUCCESS'); // no webhookUrl: the notification is lost
      assert.equal((await reconciler.run()).checked, 0, 'not due before the first step');
      clock.time += MINUTE;
      const counts = await reconciler.run();
      assert.deepEqual(counts, { checked: 1, paid: 1, failed: 0, fulfilled: 1, pending: 0, stale: 0, errors: 0 });
      const stored = await payments.get('rec-paid');
      assert.equal(stored?.state, 'SUCCESS');
      assert.notEqual(stored?.fulfilledAt, undefined);
      assert.equal(stored?.dueAt, undefined);
      assert.deepEqual(paid, ['rec-paid']);
      clock.time += 48 * 60 * MINUTE;
      assert.equal((await reconciler.run()).checked, 0);
      assert.deepEqual(paid, ['rec-paid']);
    });

    it('moves a never-paid payment along the schedule and ends it stale, PENDING, never FAILED', async () => {
      const { payments, clock, events, queried, reconciler, startPayment } = await setUp();
      await startPayment('rec-never');
      for (const [step, offset] of RECHECK_SCHEDULE_MS.entries()) {
        clock.time = T0 + offset;
        const counts = await reconciler.run();
        const last = step === RECHECK_SCHEDULE_MS.length - 1;
        assert.deepEqual(
          [counts.checked, counts.pending, counts.stale],
          [1, last ? 0 : 1, last ? 1 : 0],
          `step ${step}`,
        );
        const stored = await payments.get('rec-never');
        assert.equal(stored?.state, 'PENDING');
        assert.equal(stored?.checks, step + 1);
        assert.equal(stored?.dueAt, last ? undefined : nextCheckAt(T0, step + 1));
        assert.equal(stored?.stale, last ? true : undefined);
      }
      clock.time += 30 * 24 * 60 * MINUTE;
      assert.equal((await reconciler.run()).checked, 0);
      assert.equal(queried.length, RECHECK_SCHEDULE_MS.length);
      assert.deepEqual(
        events.filter((event) => event.type === 'stale'),
        [{ type: 'stale', paymentReference: 'rec-never', checks: RECHECK_SCHEDULE_MS.length }],
      );
      assert.equal((await payments.get('rec-never'))?.state, 'PENDING');
    });

    it('skips the steps whose time passed while no reconciler ran; a payment the gateway does not know ends stale too', async () => {
      const { payments, clock, events, reconciler, startPayment } = await setUp();
      await startPayment('rec-late');
      clock.time = T0 + 45 * MINUTE; // past the 1, 2, 5, 10 and 30 min steps
      assert.equal((await reconciler.run()).checked, 1);
      assert.equal((await payments.get('rec-late'))?.dueAt, T0 + 60 * MINUTE);
      // Never initiated at the gateway (its process died asking): every query is answered 500 "No
      // transaction found", an answer about the payment (unlike a 503), so its schedule moves on.
      await payments.insert({
        paymentReference: 'rec-unknown',
        paymentType: 'TRANSFER',
        amount: '5000.00',
        currency: 'NGN',
        state: 'PENDING',
        version: 1,
        createdAt: T0,
        updatedAt: T0,
        initiation: 'asking',
        dueAt: T0 + MINUTE,
      });
      const first = await reconciler.run();
      assert.deepEqual([first.checked, first.errors, first.pending], [1, 0, 1]);
      assert.equal((await payments.get('rec-unknown'))?.dueAt, T0 + 60 * MINUTE, 'kept due at its next step');
      clock.time = T0 + 25 * 60 * MINUTE;
      const last = await reconciler.run();
      assert.deepEqual([last.checked, last.errors, last.stale], [2, 0, 2]);
      const unknown = await payments.get('rec-unknown');
      assert.deepEqual([unknown?.state, unknown?.stale, unknown?.dueAt], ['PENDING', true, undefined]);
      assert.deepEqual(
        events
          .filter((event) => event.type === 'stale')
          .map((event) => 'paymentReference' in event && event.paymentReference)
          .sort(),
        ['rec-late', 'rec-unknown'],
      );
    });

    it('lets two reconcilers sweep one ledger at once: each entry queried once, onPaid once', async () => {
      const { payments, clock, paid, queried, reconciler, startPayment } = await setUp({
        queriesPerSecond: 1000,
        batchSize: 3,
        sleep: () => delay(1),
      });
      const references = Array.from({ length: 12 }, (_, i) => `rec-two-${i}`);
      for (const reference of references) {
        await startPayment(reference);
        sandbox.setStatus(reference, 'SUCCESS');
      }
      const other = createReconciler({
        gateway: { query: (reference) => (queried.push(reference), gateway.query(reference)) },
        payments,
        onPaid: (payment) => void paid.push(payment.paymentReference),
        now: () => clock.time,
        batchSize: 2,
        queriesPerSecond: 1000,
      });
      clock.time += MINUTE;
      const [one, two] = await Promise.all([reconciler.run(), other.run()]);
      assert.equal(one.paid + two.paid, references.length);
      assert.deepEqual([...queried].sort(), [...references].sort());
      assert.deepEqual([...paid].sort(), [...references].sort());
    });

    it('bounds its gateway queries by queriesPerSecond', async () => {
      const { clock, queriedAt, reconciler, startPayment } = await setUp({ queriesPerSecond: 4, batchSize: 3 });
      for (let i = 0; i < 10; i += 1) await startPayment(`rec-rate-${i}`);
      clock.time += MINUTE;
      assert.equal((await reconciler.run()).checked, 10);
      // The clock moves only while the reconciler waits for its next query slot: 250 ms apart, across batches.
      assert.deepEqual(
        queriedAt.map((time) => time - queriedAt[0]!),
        Array.from({ length: 10 }, (_, i) => i * 250),
      );
    });

    it('counts what a sweep did', async () => {
      let throwOnce = true;
      const { payments, clock, paid, reconciler, startPayment } = await setUp({
        onPaid: (payment) => {
          if (payment.paymentReference === 'rec-count-throws' && throwOnce) {
            throwOnce = false;
            throw new Error('orders DB down');
          }
          paid.push(payment.paymentReference);
        },
      });
      for (const name of ['paid', 'failed', 'pending', 'throws']) await startPayment(`rec-count-${name}`);
      sandbox.setStatus('rec-count-paid', 'SUCCESS');
      sandbox.setStatus('rec-count-throws', 'SUCCESS');
      sandbox.setStatus('rec-count-failed', 'FAILED');
      // A verified payment whose onPaid never returned (its process died): its lease lapsed.
      await payments.insert({
        paymentReference: 'rec-count-owed',
        paymentType: 'USSD',
        amount: '10.00',
        currency: 'NGN',
        state: 'SUCCESS',
        version: 1,
        createdAt: T0,
        updatedAt: T0,
        lease: { owner: 'dead', until: T0 + 1 },
        fulfilAttempts: 1,
        dueAt: T0 + 1,
      });
      clock.time += MINUTE;
      assert.deepEqual(await reconciler.run(), {
        checked: 4,
        paid: 2,
        failed: 1,
        fulfilled: 2,
        pending: 1,
        stale: 0,
        errors: 1,
      });
      assert.deepEqual(paid.sort(), ['rec-count-owed', 'rec-count-paid']);
      // onPaid that threw is due again after its back-off (10 s), not before.
      clock.time += 5_000;
      assert.deepEqual(await reconciler.run(), {
        checked: 0,
        paid: 0,
        failed: 0,
        fulfilled: 0,
        pending: 0,
        stale: 0,
        errors: 0,
      });
      clock.time += 5_000;
      assert.deepEqual(await reconciler.run(), {
        checked: 0,
        paid: 0,
        failed: 0,
        fulfilled: 1,
        pending: 0,
        stale: 0,
        errors: 0,
      });
      assert.notEqual((await payments.get('rec-count-throws'))?.fulfilledAt, undefined);
      const failed = await payments.get('rec-count-failed');
      assert.equal(
        failed?.dueAt,
        failed!.failedAt! + 60 * MINUTE,
        'asked again an hour after it failed (issue 24, defect 2)',
      );
    });

    it('takes no more than limit entries in a sweep', async () => {
      const { clock, reconciler, startPayment } = await setUp();
      for (let i = 0; i < 3; i += 1) await startPayment(`rec-limit-${i}`);
      clock.time += MINUTE;
      assert.equal((await reconciler.run({ limit: 2 })).checked, 2);
      assert.equal((await reconciler.run()).checked, 1);
    });
  });
}

describe('createReconciler: start, stop and options', () => {
  const gateway: Pick<Gateway, 'query'> = { query: async () => ({ kind: 'unverified', reason: 'timeout' }) };

  it('sweeps at once and every interval, never two sweeps at once, and stop() waits for the running one', async () => {
    const memory = createMemoryPaymentStore();
    await memory.insert({
      paymentReference: 'rec-start',
      paymentType: 'USSD',
      amount: '10.00',
      currency: 'NGN',
      state: 'SUCCESS',
      version: 1,
      createdAt: 1,
      updatedAt: 1,
      dueAt: 1,
    });
    let inFlight = 0;
    let mostInFlight = 0;
    const payments: PaymentStore = {
      ...memory,
      claimDue: async (now, limit, holdMs) => {
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        await delay(15);
        inFlight -= 1;
        return memory.claimDue(now, limit, holdMs);
      },
    };
    const paid: string[] = [];
    let sweeps = 0;
    const reconciler = createReconciler({
      gateway,
      payments,
      onPaid: (payment) => void paid.push(payment.paymentReference),
      onEvent: (event) => void (event.type === 'reconcile-sweep' && (sweeps += 1)),
    });
    const stop = reconciler.start(1);
    for (let wait = 0; wait < 500 && sweeps < 3; wait += 1) await delay(5);
    await stop();
    assert.equal(inFlight, 0, 'stop() waited for the running sweep');
    assert.equal(mostInFlight, 1);
    assert.ok(sweeps >= 3);
    assert.deepEqual(paid, ['rec-start']);
    const stoppedAt = sweeps;
    await delay(40);
    assert.equal(sweeps, stoppedAt, 'no sweep after stop()');
  });

  it('refuses a store without claimDue, a missing onPaid and options that cannot work, with a TypeError', () => {
    const payments = createMemoryPaymentStore();
    const onPaid = () => {};
    const refused: [string, Partial<ReconcilerOptions>, RegExp][] = [
      [
        'a store without claimDue',
        { gateway, onPaid, payments: { ...payments, claimDue: undefined } as unknown as PaymentStore },
        /claimDue\(\)/,
      ],
      ['no onPaid', { gateway, payments }, /onPaid/],
      ['no gateway', { payments, onPaid }, /gateway/],
      ['queriesPerSecond 0', { gateway, payments, onPaid, queriesPerSecond: 0 }, /queriesPerSecond/],
      ['batchSize 1.5', { gateway, payments, onPaid, batchSize: 1.5 }, /batchSize/],
      ['leaseMs -1', { gateway, payments, onPaid, leaseMs: -1 }, /leaseMs/],
    ];
    for (const [name, options, message] of refused)
      assert.throws(() => createReconciler(options as ReconcilerOptions), { name: 'TypeError', message }, name);
    assert.throws(() => createReconciler({ gateway, payments, onPaid }).start(0), /intervalMs/);
  });
});
