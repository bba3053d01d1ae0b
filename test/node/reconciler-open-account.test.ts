// Issue 35, findings 2 and 3, as a merchant meets them: payments started through the session handler,
// their notification lost, the reconciler sweeping every 10 minutes on the handler's clock.
// - 2: with `walletDaysActive: "3"` the transfer account takes money for three days, and a payment
//   made at 30 h is found by a sweep (SQLite and memory): the schedule follows the account's
//   validity, then its late steps; the memory ledger does not drop it while the account is open.
// - 3: a payment made at 23 h 50 on the memory ledger, with new sessions arriving just after 24 h:
//   the entry owes its 24 h check, so it is not dropped before the sweep that settles it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  createGateway,
  createMemoryIdempotencyStore,
  createMemoryPaymentStore,
  createReconciler,
  createSessionHandler,
  type PaymentStore,
  type SessionHandlerOptions,
} from '../../src/server/internal.js';
import { createSqliteStores } from '../../src/server/stores/sqlite/index.js';
import { BASE_URL, fakeGateway, PUBLIC_KEY, queryAnswer } from './gateway-fixtures.js';
import { ORDER, post, transferEnvelope, TRANSFER_REQUEST, ussdEnvelope, USSD_REQUEST } from './server-fixtures.js';

const T0 = 1_800_000_000_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const SWEEP_EVERY = 10 * MINUTE;
const INITIATE_PATH = '/api/v2/payments/initiates';

const folder = mkdtempSync(join(tmpdir(), 'pay-widget-open-account-'));
const files: { close(): void }[] = [];
after(() => {
  for (const file of files) file.close();
  rmSync(folder, { recursive: true, force: true });
});

/** A shop: the session handler and the reconciler on one ledger, one gateway, one clock; the gateway never notifies. */
function shop(payments: PaymentStore, clock: { time: number }, options: Partial<SessionHandlerOptions> = {}) {
  const paidAtGateway = new Set<string>();
  let next = 0;
  const upstream = fakeGateway(async (request) => {
    if (request.path === INITIATE_PATH) {
      const body = JSON.parse(request.body) as { paymentReference: string; paymentType: string };
      return Response.json(
        body.paymentType === 'USSD' ? ussdEnvelope(body.paymentReference) : transferEnvelope(body.paymentReference),
      );
    }
    const reference = decodeURIComponent(request.path.split('/').pop()!);
    const paid = paidAtGateway.has(reference);
    return queryAnswer(paid ? '00' : 'S20', { amount: 2500, currency: 'NGN' }, reference);
  });
  const gateway = createGateway({
    baseUrl: BASE_URL,
    publicKey: PUBLIC_KEY,
    accessToken: 'token-1',
    fetch: upstream.fetch,
  });
  const now = () => clock.time;
  const handler = createSessionHandler({
    gateway,
    payments,
    now,
    order: () => ({ ...ORDER, paymentReference: `pw-${(next += 1)}` }),
    ...options,
  });
  const fulfilled: string[] = [];
  const reconciler = createReconciler({
    gateway,
    payments,
    now,
    onPaid: (payment) => void fulfilled.push(payment.paymentReference),
    sleep: async (ms) => void (clock.time += ms),
  });
  /** Sweeps every 10 minutes (on the clock) up to `until`, calling `at(time)` before each sweep. */
  async function sweepUntil(until: number, at: (time: number) => void | Promise<void> = () => {}): Promise<void> {
    for (let time = Math.ceil(clock.time / SWEEP_EVERY) * SWEEP_EVERY; time <= until; time += SWEEP_EVERY) {
      clock.time = Math.max(clock.time, time);
      await at(clock.time);
      await reconciler.run();
    }
  }
  /** A customer's session (a new Idempotency-Key unless `key`): the reference it started. */
  async function start(request: object, key?: string): Promise<{ status: number; reference?: string }> {
    const answer = await handler(post(request, key === undefined ? {} : { 'idempotency-key': key }));
    const body = (await answer.json()) as { order?: { paymentReference: string } };
    return { status: answer.status, reference: body.order?.paymentReference };
  }
  const queries = (reference: string) =>
    upstream.seen.filter((request) => request.path.endsWith(`/${reference}`)).length;
  return { paidAtGateway, fulfilled, sweepUntil, start, queries };
}

const ledgers: { name: string; open(now: () => number): PaymentStore }[] = [
  // Room for two entries: a session after 24 h makes room by dropping what it may.
  { name: 'memory', open: (now) => createMemoryPaymentStore({ now, maxEntries: 2 }) },
  {
    name: 'SQLite',
    open(now) {
      const stores = createSqliteStores(join(folder, `ledger-${files.length}.db`), { now });
      files.push(stores);
      return stores.payments;
    },
  },
];

for (const ledger of ledgers) {
  describe(
    `a three-day transfer account on the ${ledger.name} ledger (issue 35, finding 2)`,
    { timeout: 120_000 },
    () => {
      it('a transfer paid at 30 h, its notification lost, is found by a sweep and fulfilled', async () => {
        const clock = { time: T0 };
        const { paidAtGateway, fulfilled, sweepUntil, start, queries } = shop(
          ledger.open(() => clock.time),
          clock,
          { walletDaysActive: '3' },
        );
        const transfer = await start(TRANSFER_REQUEST);
        const abandoned = await start(USSD_REQUEST); // never paid: past its schedule after 24 h
        assert.deepEqual([transfer.status, abandoned.status], [200, 200]);

        await sweepUntil(T0 + 26 * HOUR);
        // A new customer after 24 h: on the memory ledger it takes the room of what can no longer be paid.
        assert.equal((await start(USSD_REQUEST)).status, 200);
        await sweepUntil(T0 + 30 * HOUR - SWEEP_EVERY);
        paidAtGateway.add(transfer.reference!); // paid on its second day; the gateway's notification never arrives
        await sweepUntil(T0 + 10 * DAY);

        assert.deepEqual(fulfilled, [transfer.reference]);
        assert.ok(queries(transfer.reference!) > 0);
      });
    },
  );
}

describe('the ledger entry of a transfer (issue 35, finding 2)', () => {
  it('records when its account stops taking money, moved later when a retry gets the account again', async () => {
    const clock = { time: T0 };
    const payments = createMemoryPaymentStore({ now: () => clock.time });
    const idempotency = createMemoryIdempotencyStore({ now: () => clock.time });
    const { start } = shop(payments, clock, { walletDaysActive: '2', idempotency });
    const transfer = await start(TRANSFER_REQUEST, 'key-transfer-retried');
    const ussd = await start(USSD_REQUEST);
    assert.equal((await payments.get(transfer.reference!))?.openUntil, T0 + 2 * DAY);
    assert.equal((await payments.get(ussd.reference!))?.openUntil, undefined, 'a dial code has no account');

    clock.time = T0 + 30 * HOUR; // the key's answer expired (24 h): its retry asks the gateway again
    assert.equal((await start(TRANSFER_REQUEST, 'key-transfer-retried')).reference, transfer.reference);
    assert.equal((await payments.get(transfer.reference!))?.openUntil, T0 + 30 * HOUR + 2 * DAY);
  });
});

describe('a customer back after the schedule ended (issue 35, finding 2)', { timeout: 120_000 }, () => {
  it('gets the account again with the same key, pays, and the sweep finds it', async () => {
    const clock = { time: T0 };
    const payments = createMemoryPaymentStore({ now: () => clock.time });
    const idempotency = createMemoryIdempotencyStore({ now: () => clock.time });
    const { paidAtGateway, fulfilled, sweepUntil, start } = shop(payments, clock, { idempotency });
    const first = await start(TRANSFER_REQUEST, 'key-transfer-back');
    await sweepUntil(T0 + 5 * DAY);
    assert.deepEqual(
      [(await payments.get(first.reference!))?.stale, (await payments.get(first.reference!))?.dueAt],
      [true, undefined],
    );

    assert.equal((await start(TRANSFER_REQUEST, 'key-transfer-back')).reference, first.reference);
    clock.time = T0 + 5 * DAY + 12 * HOUR;
    paidAtGateway.add(first.reference!); // paid into the account given again; the notification is lost
    await sweepUntil(T0 + 7 * DAY);
    assert.deepEqual(fulfilled, [first.reference]);
  });
});

describe('the memory ledger without a reconciler (issue 35, finding 2)', () => {
  it('never drops a transfer whose account still takes money, then drops it once its late steps are over', async () => {
    const clock = { time: T0 };
    const payments = createMemoryPaymentStore({ now: () => clock.time, maxEntries: 1 });
    const { start } = shop(payments, clock, { walletDaysActive: '3' });
    const transfer = await start(TRANSFER_REQUEST);
    clock.time = T0 + 30 * HOUR; // nobody sweeps, but the account still takes money
    assert.equal((await start(USSD_REQUEST)).status, 503, 'refused rather than forget it');
    assert.ok(await payments.get(transfer.reference!));
    clock.time = T0 + 3 * DAY + 72 * HOUR; // closed, and its last late step is past
    assert.equal((await start(USSD_REQUEST)).status, 200);
    assert.equal(await payments.get(transfer.reference!), undefined);
  });
});

describe('the memory ledger keeps an entry whose last check is due (issue 35, finding 3)', { timeout: 120_000 }, () => {
  it('paid at 23 h 50, its notification lost, many new sessions after 24 h: the sweep still settles it', async () => {
    const clock = { time: T0 };
    const payments = createMemoryPaymentStore({ now: () => clock.time, maxEntries: 10 });
    const { paidAtGateway, fulfilled, sweepUntil, start } = shop(payments, clock);
    const sessions = [];
    for (let n = 0; n < 10; n += 1) sessions.push(await start(USSD_REQUEST));
    assert.ok(sessions.every((session) => session.status === 200));
    const [paidLate] = sessions;

    await sweepUntil(T0 + 23 * HOUR + 40 * MINUTE);
    clock.time = T0 + 23 * HOUR + 50 * MINUTE;
    paidAtGateway.add(paidLate!.reference!); // the customer pays; the notification is lost

    clock.time = T0 + DAY + 30_000; // the 24 h check is due, and the sweep has not run yet
    for (let n = 0; n < 20; n += 1) await start(USSD_REQUEST);
    await sweepUntil(T0 + DAY + SWEEP_EVERY);

    assert.deepEqual(fulfilled, [paidLate!.reference]);
    assert.equal((await payments.get(paidLate!.reference!))?.state, 'SUCCESS');
    // The sweep ended the others' schedules: new customers get in again.
    assert.equal((await start(USSD_REQUEST)).status, 200);
  });
});
