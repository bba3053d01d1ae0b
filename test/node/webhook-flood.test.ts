// Issue 35, finding 1: the webhook's query budget (5 a second) is shared by every notification and
// the endpoint is public, so a flood of fake notifications naming random references left real
// notifications of paid payments answered 503, unverified, their fulfilment waiting for a poll or
// the reconciler's next step (up to 21 hours away). A notification the webhook cannot verify now
// makes its entry due at once: the reconciler's next sweep settles it. The answer stays the one
// 503, in body and in time, whether the ledger holds the reference or not.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createSandboxGateway, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../src/sandbox/index.js';
import {
  createGateway,
  createReconciler,
  createWebhookHandler,
  type QueryOutcome,
  type WebhookHandler,
} from '../../src/server/internal.js';
import { nextCheckAt } from '../../src/server/ledger/schedule.js';
import { createMemoryPaymentStore } from '../../src/server/stores/memory.js';
import { createSqliteStores } from '../../src/server/stores/sqlite/index.js';
import type { Awaitable, Payment, PaymentStore } from '../../src/server/stores/types.js';
import { initiationBody } from './gateway-fixtures.js';
import { answer, countingGateway, ledgerEntry, notify, WEBHOOK_URL } from './webhook-fixtures.js';

/** The flood as measured: about 350 notifications a second; 16 fake ones for every real one here. */
const PER_SECOND = 350;
const FAKES = 640;
const REAL = 40;

const folder = mkdtempSync(join(tmpdir(), 'pay-widget-flood-'));
const opened: { close(): void }[] = [];
after(() => {
  for (const stores of opened) stores.close();
  rmSync(folder, { recursive: true, force: true });
});

function sqliteLedger(now: () => number): PaymentStore {
  const stores = createSqliteStores(join(folder, `ledger-${opened.length + 1}.db`), { now });
  opened.push(stores);
  return stores.payments;
}

type Answer = { status: number; headers: [string, string][]; body: string };

async function answerOf(response: Response): Promise<Answer> {
  return { status: response.status, headers: [...response.headers], body: await response.text() };
}

/**
 * The sandbox gateway, the real webhook handler (default budget) on `payments`, REAL payments
 * started and recorded as the session handler records them, on one clock the test moves.
 */
async function shop(makeLedger: (now: () => number) => PaymentStore) {
  const clock = { time: 1_700_000_000_000 };
  const now = () => clock.time;
  const payments = makeLedger(now);
  const paid: string[] = [];
  const onPaid = (payment: Payment) => void paid.push(payment.paymentReference);
  let handler: WebhookHandler = async () => new Response(null, { status: 503 });
  const heldAnswers: Answer[] = [];
  const sandbox = createSandboxGateway({
    webhookUrl: WEBHOOK_URL,
    webhookRetryDelaysMs: [],
    now,
    // The gateway's deliveries reach the webhook in-process; what it answered is kept.
    fetch: async (input, init) => {
      const response = await handler(new Request(input, init));
      heldAnswers.push(await answerOf(response.clone()));
      return response;
    },
  });
  const gateway = createGateway({
    baseUrl: 'https://sandbox.test',
    publicKey: SANDBOX_PUBLIC_KEY,
    secretKey: SANDBOX_SECRET_KEY,
    fetch: sandbox.fetch,
  });
  handler = createWebhookHandler({ gateway, payments, onPaid, now });

  const real = Array.from({ length: REAL }, (_, i) => `REAL-${1000 + i}`);
  for (const reference of real) {
    assert.equal(
      (await gateway.initiate({ ...initiationBody(reference), publicKey: SANDBOX_PUBLIC_KEY })).kind,
      'success',
    );
    const recorded = ledgerEntry(reference, {
      createdAt: clock.time,
      updatedAt: clock.time,
      initiation: 'started',
      dueAt: nextCheckAt(clock.time, 0),
    });
    assert.equal(await payments.insert(recorded), true);
  }
  const reconciler = createReconciler({ gateway, payments, onPaid, now, sleep: async (ms) => void (clock.time += ms) });
  return { clock, payments, paid, real, sandbox, heldAnswers, handler: () => handler, reconciler };
}

/**
 * FAKES notifications of random references with REAL customers paying among them, one after
 * another at PER_SECOND of the clock; then one reconciler sweep. What was settled when.
 */
async function flood(setUp: Awaited<ReturnType<typeof shop>>) {
  const { clock, payments, paid, real, sandbox, heldAnswers } = setUp;
  const unknownAnswers: Answer[] = [];
  const every = Math.floor(FAKES / REAL);
  for (let i = 0; i < FAKES; i += 1) {
    clock.time += 1_000 / PER_SECOND;
    unknownAnswers.push(await answerOf(await setUp.handler()(notify(`ORDER-${crypto.randomUUID()}`))));
    if (i % every === every / 2) {
      clock.time += 1_000 / PER_SECOND;
      assert.equal(sandbox.setStatus(real[Math.floor(i / every)]!, 'SUCCESS'), true);
      await sandbox.webhooksSettled();
    }
  }
  assert.equal(heldAnswers.length, REAL, 'each real notification delivered once');
  // The marks are not waited for by the answers; they are in the ledger a moment later.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const settledByWebhook = new Set(paid).size;
  await setUp.reconciler.run();
  const states = await Promise.all(real.map(async (reference) => (await payments.get(reference))?.state));
  const fulfilled = real.filter(
    (reference, i) => states[i] === 'SUCCESS' && paid.filter((one) => one === reference).length === 1,
  );
  return { settledByWebhook, fulfilled, heldAnswers, unknownAnswers, paid };
}

const withoutMarkDue = (now: () => number): PaymentStore => {
  const { markDue: _markDue, ...store } = createMemoryPaymentStore({ now });
  return store;
};

describe('a flood of fake notifications does not leave real paid ones unsettled (issue 35, finding 1)', () => {
  for (const [name, makeLedger] of [
    ['a SQLite ledger', sqliteLedger],
    ['the memory ledger', (now: () => number) => createMemoryPaymentStore({ now })],
    ['a store of the merchant’s own, without markDue', withoutMarkDue],
  ] as const) {
    it(`${FAKES} fake notifications and ${REAL} real paid ones, then one sweep: every real one SUCCESS, onPaid once (${name})`, async (t) => {
      const setUp = await shop(makeLedger);
      const { settledByWebhook, fulfilled, heldAnswers, unknownAnswers, paid } = await flood(setUp);
      t.diagnostic(
        `${name}: real paid notifications settled by the webhook ${settledByWebhook}/${REAL}, after one sweep ${fulfilled.length}/${REAL}`,
      );
      assert.ok(settledByWebhook < REAL / 4, `the flood spent the budget: ${settledByWebhook} settled by the webhook`);
      assert.equal(fulfilled.length, REAL, `settled after one sweep: ${fulfilled.length} of ${REAL}`);
      assert.equal(paid.length, REAL, 'onPaid ran once per payment');

      // Held or unknown, a notification the budget could not verify gets the one 503, byte for byte.
      const refused = (answers: Answer[]) =>
        new Set(answers.filter((answer) => answer.status !== 200).map((answer) => JSON.stringify(answer)));
      assert.deepEqual(new Set(unknownAnswers.map((answer) => answer.status)), new Set([503]));
      assert.ok(heldAnswers.some((answer) => answer.status === 503));
      assert.deepEqual(refused(heldAnswers), refused(unknownAnswers));
      setUp.sandbox.close();
    });
  }
});

describe('the mark does not tell held references from unknown ones by the answer time (issue 35, finding 1)', () => {
  const WRITE_DELAY_MS = 40;

  it('budget spent, on a ledger whose writes take 40 ms: held and unknown answered in times that do not separate', async () => {
    let time = 1_000_000;
    const ledger = createMemoryPaymentStore({ now: () => time });
    const slowWrite = async (write: () => Awaitable<boolean>): Promise<boolean> => {
      await new Promise((resolve) => setTimeout(resolve, WRITE_DELAY_MS));
      return write();
    };
    // A real ledger behind a slow disk: every write (the mark among them) takes WRITE_DELAY_MS.
    const payments: PaymentStore = {
      ...ledger,
      update: (payment) => slowWrite(() => ledger.update(payment)),
      markDue: (reference, at) => slowWrite(() => ledger.markDue!(reference, at)),
    };
    const guesses = Array.from({ length: 20 }, (_, i) => `ORDER-${7000 + i}`);
    const held = guesses.filter((_, i) => i % 2 === 0);
    for (const reference of held)
      await ledger.insert(ledgerEntry(reference, { initiation: 'started', dueAt: time + 60_000 }));
    const gateway = { query: async (): Promise<QueryOutcome> => ({ kind: 'unverified', reason: 'timeout' }) };
    const handler = createWebhookHandler({ gateway, payments, onPaid: () => {}, queriesPerSecond: 1, now: () => time });
    await handler(notify('SPEND-1'));

    const seen: { held: boolean; status: number; body: string; ms: number }[] = [];
    for (const [i, reference] of guesses.entries()) {
      const started = performance.now();
      const response = await handler(notify(reference));
      seen.push({
        held: i % 2 === 0,
        status: response.status,
        body: await response.text(),
        ms: performance.now() - started,
      });
      time += 10;
    }
    assert.deepEqual(
      new Set(seen.map((guess) => `${guess.status} ${guess.body}`)).size,
      1,
      'one status and body for all',
    );
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const [ofHeld, ofUnknown] = [seen.filter((guess) => guess.held), seen.filter((guess) => !guess.held)].map(
      (guesses) => median(guesses.map((guess) => guess.ms)),
    );
    assert.ok(
      Math.abs(ofHeld! - ofUnknown!) < WRITE_DELAY_MS / 2,
      `median answer times: held ${ofHeld!.toFixed(1)} ms, unknown ${ofUnknown!.toFixed(1)} ms`,
    );

    await new Promise((resolve) => setTimeout(resolve, WRITE_DELAY_MS * 3));
    for (const reference of held)
      assert.equal(
        (await ledger.get(reference))?.dueAt,
        1_000_000 + 10 * guesses.indexOf(reference),
        `${reference} due at once`,
      );
  });
});

describe('notifications the webhook could not verify do not use up the reconciler’s schedule (issue 35, finding 1)', () => {
  it('a pending payment named 8 times in its first minute under a spent budget, swept after each: asked each time, still on its first step, not stale', async () => {
    let time = 1_000_000;
    const now = () => time;
    const payments = createMemoryPaymentStore({ now });
    const created = time;
    await payments.insert(
      ledgerEntry('ORDER-9001', {
        createdAt: created,
        updatedAt: created,
        initiation: 'started',
        dueAt: nextCheckAt(created, 0),
      }),
    );
    const gateway = countingGateway(() => answer('S20'));
    const handler = createWebhookHandler({ gateway, payments, onPaid: () => {}, queriesPerSecond: 0.001, now });
    const reconciler = createReconciler({
      gateway,
      payments,
      onPaid: () => {},
      now,
      sleep: async (ms) => void (time += ms),
    });
    await handler(notify('SPEND-1'));
    for (let i = 0; i < 8; i += 1) {
      time += 6_000; // past the webhook's requeryAfterMs since the last sweep asked
      assert.equal((await handler(notify('ORDER-9001'))).status, 503);
      await new Promise((resolve) => setTimeout(resolve, 10));
      await reconciler.run();
    }
    assert.equal(gateway.queries.filter((reference) => reference === 'ORDER-9001').length, 8, 'each sweep asked');
    const stored = await payments.get('ORDER-9001');
    assert.equal(stored?.stale, undefined, 'not stale after 8 early queries');
    assert.equal(stored?.checks ?? 0, 0);
    assert.equal(stored?.dueAt, created + 60_000, 'still due at its first step');
  });
});
