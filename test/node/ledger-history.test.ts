// Each ledger entry's history, as a shop's server writes it (issue 37): what happened, in order,
// from the decisions onEvent hears (so never a customer detail), and never at a payment's expense:
// a store whose history cannot be written still takes and settles payments.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSandboxGateway, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../src/sandbox/index.js';
import { createGateway, createMemoryStores, createPayments, type PaymentsStores } from '../../src/server/index.js';
import { historyFromEvent, historyOf } from '../../src/server/ledger/history.js';
import { skip, usePostgres } from './postgres-fixture.js';
import { USSD_REQUEST } from './server-fixtures.js';

const postgres = usePostgres();

const ORIGIN = 'http://127.0.0.1:3000';
const CUSTOMER = { fullName: 'Chiamaka Eze', mobileNumber: '08037654321', email: 'chiamaka@buyer.example' };

/** One payment through a shop on the sandbox, paid and polled: every event, reply and onPaid call. */
async function paidThrough(stores: PaymentsStores, onPaidToo: (reference: string) => Promise<void> | void = () => {}) {
  const sandbox = createSandboxGateway();
  const gateway = createGateway({
    baseUrl: 'https://sandbox.invalid',
    publicKey: SANDBOX_PUBLIC_KEY,
    secretKey: SANDBOX_SECRET_KEY,
    fetch: (input, init) => sandbox.fetch(new Request(input, init)),
  });
  let time = Date.now();
  const events: unknown[] = [];
  const paid: string[] = [];
  const payments = createPayments({
    gateway,
    stores,
    order: async () => ({ amount: '5000.00', currency: 'NGN' }),
    onPaid: async (payment) => {
      await onPaidToo(payment.paymentReference);
      paid.push(payment.paymentReference);
    },
    onEvent: (event) => void events.push(event),
    publicUrl: `${ORIGIN}/pay`,
    reconcile: false,
    statusSecret: 'ledger-history-test-secret-0123456789',
    now: () => time,
  });
  const started = await payments.handler(
    new Request(`${ORIGIN}/pay/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': `ledger-history-${Math.random()}` },
      body: JSON.stringify({ ...USSD_REQUEST, ...CUSTOMER }),
    }),
  );
  const replies = [await started.clone().text()];
  const { order } = (await started.json()) as { order: { paymentReference: string; statusToken: string } };
  sandbox.setStatus(order.paymentReference, 'SUCCESS');
  const url = new URL(`${ORIGIN}/pay/status`);
  url.search = new URLSearchParams({
    paymentReference: order.paymentReference,
    statusToken: order.statusToken,
  }).toString();
  // The reconciler's first look, a minute on, finds it paid.
  time += 2 * 60 * 1000;
  await payments.sweep();
  replies.push(await (await payments.handler(new Request(url))).text());
  await payments.close();
  await sandbox.close();
  return { reference: order.paymentReference, events, replies, paid };
}

describe('the ledger entry’s history', () => {
  it('records each move in order, keeps the customer on the entry for a search, and never gives a customer detail to onEvent or a reply', async () => {
    const stores = createMemoryStores();
    const { reference, events, replies, paid } = await paidThrough(stores);
    assert.deepEqual(paid, [reference]);
    // The last appends are written after the reply: wait for them.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const history = await historyOf(stores.payments, (await stores.payments.get(reference))!);
    assert.deepEqual(
      history.map((event) => [event.what, event.detail]),
      [
        ['created', '5000.00 NGN'],
        ['instructions', 'USSD'],
        ['query-answered', 'SUCCESS (code 00)'],
        ['paid', '5000.00 NGN'],
        ['onPaid-started', undefined],
        ['onPaid-returned', 'attempt 1'],
      ],
    );
    const entry = await stores.payments.get(reference);
    assert.deepEqual(entry?.customer, { name: CUSTOMER.fullName, phone: CUSTOMER.mobileNumber, email: CUSTOMER.email });
    assert.deepEqual(
      (await stores.payments.list!({ search: '765432' })).map((found) => found.paymentReference),
      [reference],
    );
    const heard = JSON.stringify(events) + replies.join('') + JSON.stringify(history);
    for (const detail of [CUSTOMER.fullName, CUSTOMER.mobileNumber, CUSTOMER.email, '7654321'])
      assert.ok(!heard.includes(detail), `${detail} leaked`);
  });

  it('never fails a payment: a store whose history cannot be written still takes, settles and fulfils it', async () => {
    const stores = createMemoryStores();
    stores.payments.appendHistory = () => Promise.reject(new Error('the history table is locked'));
    const { reference, paid } = await paidThrough(stores);
    assert.deepEqual(paid, [reference]);
    assert.equal((await stores.payments.get(reference))?.state, 'SUCCESS');
  });

  it(
    'on PostgreSQL, writes onPaid-started while onPaid’s transaction holds its payment’s row',
    { skip, timeout: 60_000 },
    async () => {
      const stores = await postgres.stores();
      const seen: string[][] = [];
      const { reference, paid } = await paidThrough(stores, async (running) => {
        // onPaid runs in the transaction that holds the row lock: the history row is written meanwhile.
        for (let waited = 0; waited < 3_000; waited += 50) {
          const whats = (await stores.payments.history!(running)).map((event) => event.what);
          seen.push(whats);
          if (whats.includes('onPaid-started')) return;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
      assert.deepEqual(paid, [reference]);
      assert.ok(seen.at(-1)?.includes('onPaid-started'), JSON.stringify(seen.at(-1)));
    },
  );

  it('reads each reported decision as a line a person understands, and ignores the rest', () => {
    const at = 5;
    const cases: [Record<string, unknown>, unknown][] = [
      [
        { type: 'internal-error', where: 'onPaid', paymentReference: 'R', detail: 'TypeError' },
        { at, what: 'onPaid-threw', detail: 'TypeError' },
      ],
      [{ type: 'internal-error', where: 'store', paymentReference: 'R', detail: 'Conflict' }, undefined],
      [
        { type: 'onPaid-timeout', paymentReference: 'R', timeoutMs: 30000 },
        { at, what: 'onPaid-timed-out', detail: 'after 30000 ms' },
      ],
      [
        { type: 'unverified', paymentReference: 'R', reason: 'timeout' },
        { at, what: 'query-unanswered', detail: 'timeout' },
      ],
      [
        {
          type: 'needs-review',
          paymentReference: 'R',
          reason: 'amount-mismatch',
          amountReceived: '4000',
          currencyReceived: 'NGN',
        },
        { at, what: 'review', detail: 'amount-mismatch: 4000 NGN received' },
      ],
      [
        { type: 'late-success', paymentReference: 'R', previousCode: 'S12' },
        { at, what: 'late-success', detail: 'after code S12' },
      ],
      [
        { type: 'stale', paymentReference: 'R', checks: 8 },
        { at, what: 'stale', detail: 'still pending after 8 queries' },
      ],
      [
        { type: 'gateway', outcome: 'timeout', paymentReference: 'R' },
        { at, what: 'initiation-failed', detail: 'timeout' },
      ],
      [{ type: 'gateway', outcome: 'success', paymentReference: 'R' }, undefined],
      [{ type: 'replayed', idempotencyKey: 'k', status: 200 }, undefined],
    ];
    for (const [event, expected] of cases)
      assert.deepEqual(historyFromEvent(event as { type: string }, at), expected, JSON.stringify(event));
  });
});
