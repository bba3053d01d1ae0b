// Issue 16 (attack review), the gateway client's part: each test failed on the code before its fix.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PAYMENT_REFERENCE } from '../../src/rules.js';
import { createGateway, type GatewayOptions, type SettleEvent } from '../../src/server/index.js';
import { settlePayment } from '../../src/server/settle.js';
import { createMemoryPaymentStore, type Payment } from '../../src/server/stores.js';
import { BASE_URL, fakeGateway, json, PUBLIC_KEY, SECRET_KEY, tokenAnswer, type Seen } from './gateway-fixtures.js';

const TOKEN = 'tOk3n+One/AAAAbbbbCCCCdddd==';

function keyedGateway(answer: (request: Seen, count: number) => Response | Promise<Response>, options: Partial<GatewayOptions> = {}) {
  const fake = fakeGateway((request, count) => (request.path === '/api/v2/encrypt/keys' ? tokenAnswer(TOKEN) : answer(request, count)));
  const gateway = createGateway({ baseUrl: BASE_URL, publicKey: PUBLIC_KEY, secretKey: SECRET_KEY, fetch: fake.fetch, ...options });
  return { gateway, ...fake };
}

/** A paid query answer whose `payments` are exactly `payments`. */
function paidAnswer(payments: Record<string, unknown>): Response {
  return json(200, { status: 'SUCCESS', data: { code: '00', message: 'Successful', payments } });
}

describe('issue 16 item 4: references that change the query URL', () => {
  it('refuses references made only of dots, and dot segments a URL would resolve', () => {
    for (const bad of ['.', '..', '...', '....', 'a/..', '../a', 'a/./b', './a', 'INV/..']) {
      assert.equal(PAYMENT_REFERENCE.test(bad), false, bad);
    }
    for (const good of ['INV/2024/0042', 'order:42.a_b-c', 'a.b', '..a', 'a..', 'v1.2/..x', '.hidden']) {
      assert.equal(PAYMENT_REFERENCE.test(good), true, good);
    }
  });

  it('sends no query for "." or "..", so the token never goes to another path', async () => {
    const { gateway, seen } = keyedGateway(() => paidAnswer({ amount: 5000, currency: 'NGN' }));
    for (const reference of ['.', '..']) {
      const outcome = await gateway.query(reference);
      assert.equal(outcome.kind, 'unverified', reference);
    }
    assert.deepEqual(seen.filter((request) => request.path.startsWith('/api/v3/') || request.path.startsWith('/api/v2/payments')), []);
  });

  for (const [name, payments] of [
    ['without a paymentReference', { amount: 5000, currency: 'NGN' }],
    ['with an empty paymentReference', { paymentReference: '', amount: 5000, currency: 'NGN' }],
    ['with another paymentReference', { paymentReference: 'SOMEONE-ELSE', amount: 5000, currency: 'NGN' }],
    ['with a paymentReference that is not a string', { paymentReference: 1042, amount: 5000, currency: 'NGN' }],
  ] as const) {
    it(`reads a paid answer ${name} as unverified, never SUCCESS`, async () => {
      const { gateway } = keyedGateway(() => paidAnswer(payments));
      const outcome = await gateway.query('ORDER-1042');
      assert.deepEqual(outcome, { kind: 'unverified', reason: 'other-reference', httpStatus: 200 });
    });
  }
});

describe('issue 16 item 5: two amounts that disagree', () => {
  /** Queries ORDER-1042 (ledger: 5000.00 NGN) and settles with the answer; what the merchant hears. */
  async function settleWith(payments: Record<string, unknown>) {
    const { gateway } = keyedGateway(() => paidAnswer({ paymentReference: 'ORDER-1042', currency: 'NGN', ...payments }));
    const outcome = await gateway.query('ORDER-1042');
    assert.equal(outcome.kind, 'answer');
    if (outcome.kind !== 'answer') throw new Error('no answer');
    const store = createMemoryPaymentStore();
    const entry: Payment = { paymentReference: 'ORDER-1042', paymentType: 'TRANSFER', amount: '5000.00', currency: 'NGN', state: 'PENDING', version: 1, createdAt: 1, updatedAt: 1 };
    await store.insert(entry);
    const paid: Payment[] = [];
    const events: SettleEvent[] = [];
    const result = await settlePayment(entry, outcome, { payments: store, onPaid: (payment) => void paid.push(payment), emit: (event) => events.push(event) });
    return { outcome, result, paid, events, stored: await store.get('ORDER-1042') };
  }

  for (const [name, payments] of [
    ['paymentBreakdown.amount 5000, payments.amount 1', { amount: 1, paymentBreakdown: { amount: 5000, fee: 75, total: 5075 } }],
    ['paymentBreakdown.amount 5000, payments.amount 6000 (more than amount + fee)', { amount: 6000, paymentBreakdown: { amount: 5000, fee: 75, total: 5075 } }],
    ['paymentBreakdown.amount "5000", payments.amount "1.00"', { amount: '1.00', paymentBreakdown: { amount: '5000' } }],
  ] as const) {
    it(`does not pay a 00 answer with ${name}: an amount mismatch`, async () => {
      const { outcome, result, paid, events, stored } = await settleWith(payments);
      assert.notEqual(outcome.amount, 5000);
      assert.equal(paid.length, 0);
      assert.deepEqual({ kind: result.kind, reason: result.kind === 'pending' ? result.reason : undefined }, { kind: 'pending', reason: 'mismatch' });
      assert.equal(stored?.state, 'PENDING');
      assert.ok(events.some((event) => event.type === 'amount-mismatch' && event.expected.amount === '5000.00'), JSON.stringify(events));
    });
  }

  for (const [name, payments] of [
    ['payments.amount equal to paymentBreakdown.amount', { amount: 5000, paymentBreakdown: { amount: 5000, fee: 75, total: 5075 } }],
    ['payments.amount the total with the fee', { amount: 5075, paymentBreakdown: { amount: 5000, fee: 75, total: 5075 } }],
    ['payments.amount the total with the fee from payments.fee', { amount: 5075, fee: '75.00', paymentBreakdown: { amount: 5000 } }],
  ] as const) {
    it(`still pays a 00 answer with ${name}`, async () => {
      const { result, paid } = await settleWith(payments);
      assert.equal(result.kind, 'settled');
      assert.equal(paid.length, 1);
    });
  }
});
