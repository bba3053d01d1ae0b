/**
 * Issue 18, "I've sent the money" on the server: a status poll with `recheck=1` re-queries a PENDING
 * payment the gateway was not asked about for `recheckFloorMs` (default 2 s) instead of
 * `recheckAfterMs`, still once per interval per reference. The clock is Date's, mocked.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import {
  createMemoryPaymentStore,
  createStatusHandler,
  type Gateway,
  type Payment,
  type QueryOutcome,
  type StatusHandlerOptions,
  type StatusLookupContext,
} from '../../src/server/internal.js';
import { STATUS_SECRET, statusBody, statusTokenFor } from './server-fixtures.js';

const NOW = Date.UTC(2025, 2, 1, 10, 0, 0);
const REFERENCE = 'order-18';
const PENDING: QueryOutcome = {
  kind: 'answer',
  state: 'PENDING',
  code: 'S20',
  amount: 2500,
  currency: 'NGN',
  message: 'Pending',
};
const PAID: QueryOutcome = {
  kind: 'answer',
  state: 'SUCCESS',
  code: '00',
  amount: 2500,
  currency: 'NGN',
  message: 'Approved',
};

/** A status handler on a ledger holding one PENDING payment initiated `ageMs` ago, its gateway counting queries. */
async function setUp(t: TestContext, ageMs: number, options: Partial<StatusHandlerOptions> = {}, answer = PENDING) {
  t.mock.timers.enable({ apis: ['Date'], now: NOW });
  const payments = createMemoryPaymentStore();
  const created = NOW - ageMs;
  const entry: Payment = {
    paymentReference: REFERENCE,
    paymentType: 'TRANSFER',
    amount: '2500.00',
    currency: 'NGN',
    state: 'PENDING',
    version: 1,
    createdAt: created,
    updatedAt: created,
  };
  await payments.insert(entry);
  let queries = 0;
  const gateway: Pick<Gateway, 'query'> = {
    query: async () => {
      queries += 1;
      return structuredClone(answer);
    },
  };
  const handler = createStatusHandler({ statusSecret: STATUS_SECRET, payments, gateway, onPaid: () => {}, ...options });
  const token = await statusTokenFor(REFERENCE);
  const poll = async (recheck: boolean) => {
    const flag = recheck ? '&recheck=1' : '';
    const response = await handler(
      new Request(`https://shop.test/pay/status?paymentReference=${REFERENCE}&statusToken=${token}${flag}`),
    );
    assert.equal(response.status, 200);
    return (await statusBody(response)) as { status: string };
  };
  return { poll, queries: () => queries, advance: (ms: number) => t.mock.timers.tick(ms) };
}

describe('issue 18: status recheck=1', () => {
  it('re-queries at once after the 2 s floor, where a plain poll waits recheckAfterMs', async (t) => {
    const { poll, queries } = await setUp(t, 3_000);
    await poll(false);
    assert.equal(queries(), 0, '3 s since initiation: a plain poll waits the 5 s of recheckAfterMs');
    await poll(true);
    assert.equal(queries(), 1, 'the flag asks the gateway now');
  });

  it('does not re-query twice within the floor, however many flagged polls come', async (t) => {
    const { poll, queries, advance } = await setUp(t, 10_000);
    await Promise.all([poll(true), poll(true), poll(true)]);
    assert.equal(queries(), 1);
    advance(1_999);
    await poll(true);
    assert.equal(queries(), 1, 'within 2 s of the last query');
    advance(1);
    await poll(true);
    assert.equal(queries(), 2, '2 s after it');
  });

  it('answers what the re-query found', async (t) => {
    const { poll } = await setUp(t, 3_000, {}, PAID);
    assert.deepEqual(await poll(true), { status: 'SUCCESS', amount: '2500.00', currency: 'NGN' });
  });

  it('follows recheckFloorMs', async (t) => {
    const { poll, queries, advance } = await setUp(t, 600, { recheckFloorMs: 500 });
    await poll(true);
    assert.equal(queries(), 1);
    advance(499);
    await poll(true);
    assert.equal(queries(), 1);
    advance(1);
    await poll(true);
    assert.equal(queries(), 2);
  });

  it('is never slower than a plain poll: a floor above recheckAfterMs gives way to it', async (t) => {
    const { poll, queries } = await setUp(t, 3_500, { recheckFloorMs: 4_000, recheckAfterMs: 3_500 });
    await poll(true);
    assert.equal(queries(), 1);
  });

  it('refuses a recheckFloorMs that cannot work', () => {
    for (const recheckFloorMs of [-1, Number.NaN, '2000']) {
      assert.throws(
        () =>
          createStatusHandler({
            statusSecret: STATUS_SECRET,
            payments: createMemoryPaymentStore(),
            gateway: { query: async () => PENDING },
            recheckFloorMs: recheckFloorMs as number,
          }),
        /recheckFloorMs/,
      );
    }
  });

  it("tells a merchant's own lookup whether the poll asked for a re-query", async () => {
    const seen: boolean[] = [];
    const handler = createStatusHandler({
      statusSecret: STATUS_SECRET,
      lookup: (_reference, context: StatusLookupContext) => {
        seen.push(context.recheck);
        return { status: 'PENDING' };
      },
    });
    const token = await statusTokenFor(REFERENCE);
    for (const flag of ['', '&recheck=1', '&recheck=true']) {
      await handler(
        new Request(`https://shop.test/pay/status?paymentReference=${REFERENCE}&statusToken=${token}${flag}`),
      );
    }
    assert.deepEqual(seen, [false, true, false]);
  });
});

describe('a page polling for hours (a transfer account valid for days)', () => {
  /** Polls `page` every 10 s, as the widget does after its first minute, for `minutes`; the gateway queries it caused. */
  async function pollFor(minutes: number, page: Awaited<ReturnType<typeof setUp>>) {
    const { poll, queries, advance } = page;
    const before = queries();
    for (let second = 0; second < minutes * 60; second += 10) {
      await poll(false);
      advance(10_000);
    }
    return queries() - before;
  }

  it('asks the gateway at every poll due in the first hour, then once per sixtieth of the payment’s age', async (t) => {
    const young = await setUp(t, 20 * 60_000);
    assert.equal(await pollFor(10, young), 60, '20 minutes old: every 10 s poll is past the 5 s of recheckAfterMs');
    t.mock.timers.reset();

    const day = await setUp(t, 24 * 3_600_000);
    assert.equal(await pollFor(60, day), 3, 'a day old: once every 24 minutes');
    t.mock.timers.reset();

    const hours = await setUp(t, 2 * 3_600_000);
    const asked = await pollFor(10, hours);
    assert.ok(asked >= 4 && asked <= 6, `two hours old: about every 2 minutes, ${asked} in 10`);
  });

  it('still asks at once when the customer says they have paid', async (t) => {
    const { poll, queries, advance } = await setUp(t, 24 * 3_600_000);
    await poll(false);
    assert.equal(queries(), 1);
    advance(5_000);
    await poll(false);
    assert.equal(queries(), 1, 'a plain poll waits');
    await poll(true);
    assert.equal(queries(), 2, '"I’ve sent the money" asks after the 2 s floor');
  });
});
