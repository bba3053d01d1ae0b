// Issue 24, defect 1: a changed cart was charged the old amount. The README's stable reference
// (`order-${cart.id}`) met a ledger that already held it: a customer started paying a ₦800 cart,
// added ₦49,200 of goods and pressed Pay again (a new attempt, a new Idempotency-Key), and the
// session answered the old entry's 800.00. A new attempt whose reference the ledger holds with
// another amount or currency is refused (409 `order_changed`, retryable false), and nothing is
// charged; only a retry with the same key keeps the ledger's amount.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { postSession } from '../../src/element/client.js';
import { transition, type FlowState } from '../../src/element/flow.js';
import { createMemoryPaymentStore, type ResolvedOrder } from '../../src/server/internal.js';
import { makeHandler, newKey, ORDER, post, readError, SESSION_URL, USSD_REQUEST } from './server-fixtures.js';

/** The shop's cart: its total changes as the customer adds goods; its reference is the README's `order-${cart.id}`. */
function shop(total: string, currency = 'NGN') {
  const cart = { id: 42, total, currency };
  const payments = createMemoryPaymentStore();
  const order = (): ResolvedOrder => ({
    ...ORDER,
    paymentReference: `order-${cart.id}`,
    amount: cart.total,
    currency: cart.currency,
  });
  return { cart, payments, ...makeHandler({ payments, order }) };
}

describe('createSessionHandler: an order changed after its payment started (issue 24, defect 1)', () => {
  it('refuses the ₦50,000 cart a new attempt brings for order-42, started at ₦800: 409 order_changed, never charged', async () => {
    const { cart, payments, handler, calls } = shop('800.00');
    const first = await handler(post(USSD_REQUEST));
    assert.equal(first.status, 200);
    assert.equal(((await first.json()) as { order: { amount: string } }).order.amount, '800.00');
    const before = await payments.get('order-42');

    cart.total = '50000.00'; // ₦49,200 of goods added; Pay pressed again: a new Idempotency-Key
    const error = await readError(await handler(post(USSD_REQUEST)), 409, 'order_changed');
    assert.equal(error.message, 'This order changed after its payment started.');
    assert.equal(error.retryable, false);
    assert.equal(calls.length, 1, 'the gateway was not asked for ₦800 again');
    assert.deepEqual(await payments.get('order-42'), before, 'the ledger entry is unchanged');
  });

  it('refuses a new attempt for another currency too', async () => {
    const { cart, handler, calls } = shop('800.00');
    assert.equal((await handler(post(USSD_REQUEST))).status, 200);
    cart.currency = 'USD';
    await readError(await handler(post(USSD_REQUEST)), 409, 'order_changed');
    assert.equal(calls.length, 1);
  });

  it('still lets a new attempt for the same amount reuse the entry (a second tab, the same cart)', async () => {
    const { handler, calls } = shop('800.00');
    assert.equal((await handler(post(USSD_REQUEST))).status, 200);
    const again = await handler(post(USSD_REQUEST));
    assert.equal(again.status, 200);
    assert.equal(((await again.json()) as { order: { amount: string } }).order.amount, '800.00');
    assert.deepEqual(
      calls.map((call) => call.body.amount),
      ['800.00', '800.00'],
    );
  });

  it('keeps the ledger amount for a retry with the same key, whatever the resolver says now', async () => {
    const cart = { total: '800.00' };
    const key = { 'idempotency-key': newKey() };
    // The first attempt's answer is lost upstream: the key keeps only its order, and the retry asks again.
    let answered = 0;
    const retried = makeHandler(
      {
        payments: createMemoryPaymentStore(),
        order: () => ({ ...ORDER, paymentReference: 'order-43', amount: cart.total }),
      },
      (call) =>
        answered++ === 0
          ? new Response(null, { status: 503 })
          : Response.json({
              status: 'SUCCESS',
              data: {
                code: '00',
                message: 'ok',
                payments: {
                  paymentReference: String(call.body.paymentReference),
                  ussdDailCode: '*1#',
                  linkingReference: 'L',
                  providerreference: 'P',
                },
              },
            }),
    );
    await readError(await retried.handler(post(USSD_REQUEST, key)), 502, 'gateway_error');
    cart.total = '50000.00';
    const retry = await retried.handler(post(USSD_REQUEST, key));
    assert.equal(retry.status, 200);
    assert.deepEqual(
      retried.calls.map((call) => call.body.amount),
      ['800.00', '800.00'],
    );
    assert.equal(((await retry.json()) as { order: { amount: string } }).order.amount, '800.00');
  });
});

describe('<pay-widget> meets order_changed as a refusal', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('offers no Try again: the failure is not retryable, and retry leaves the error screen as it is', async () => {
    const { cart, handler } = shop('800.00');
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
      handler(new Request(input, init))) as typeof fetch;
    const options = () => ({ idempotencyKey: newKey(), signal: new AbortController().signal });
    await postSession(SESSION_URL, USSD_REQUEST as never, options());
    cart.total = '50000.00';
    const refused = await postSession(SESSION_URL, USSD_REQUEST as never, options()).then(
      () => assert.fail('a changed order must be refused'),
      (error: { failure: { code: string; message: string; retryable: boolean } }) => error.failure,
    );
    // `says`: the widget's own words for it, in the customer's language (messages/*.ts, orderChanged).
    assert.deepEqual(refused, {
      code: 'http',
      message: 'This order changed after its payment started.',
      retryable: false,
      says: 'orderChanged',
    });
    const shown: FlowState = { kind: 'error', request: USSD_REQUEST as never, failure: refused as never };
    assert.equal(transition(shown, { type: 'retry' }), shown, 'Try again does nothing');
    assert.deepEqual(transition(shown, { type: 'edit' }), { kind: 'form' }, 'Edit details goes back to the form');
  });
});
