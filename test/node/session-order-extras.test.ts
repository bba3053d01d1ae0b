/**
 * Issue 18, the session answer's `order`: `expiresAt` for a TRANSFER account (what the customer is
 * told, 30 minutes by default, `transferValidityMs`), and the resolver's `fee` (part of `amount`),
 * both passed through to the widget and accepted by the browser's schema as optional.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { orderSchema } from '../../src/contract/schemas.js';
import { checkOrder } from '../../src/server/session/order.js';
import type { SessionHandlerOptions } from '../../src/server/internal.js';
import { makeHandler, newKey, ORDER, post, readError, TRANSFER_REQUEST, USSD_REQUEST } from './server-fixtures.js';

const NOW = Date.UTC(2025, 2, 1, 10, 15, 2);
const MINUTE = 60_000;

/** The success body's `order`, checked against the schema the widget's contract is written in. */
async function orderOf(response: Response): Promise<Record<string, unknown>> {
  assert.equal(response.status, 200, await response.clone().text());
  const { order } = (await response.json()) as { order: Record<string, unknown> };
  assert.ok(orderSchema.safeParse(order).success, JSON.stringify(order));
  return order;
}

function clockAt(t: TestContext, now: number): void {
  t.mock.timers.enable({ apis: ['Date'], now });
}

describe('issue 18: order.expiresAt', () => {
  it('is 30 minutes after the answer for TRANSFER, in ISO 8601 UTC', async (t) => {
    clockAt(t, NOW);
    const { handler } = makeHandler();
    const order = await orderOf(await handler(post(TRANSFER_REQUEST)));
    assert.equal(order.expiresAt, new Date(NOW + 30 * MINUTE).toISOString());
    assert.equal(Date.parse(String(order.expiresAt)) - NOW, 30 * MINUTE);
  });

  it('follows transferValidityMs', async (t) => {
    clockAt(t, NOW);
    const { handler } = makeHandler({ transferValidityMs: 10 * MINUTE });
    assert.equal(
      (await orderOf(await handler(post(TRANSFER_REQUEST)))).expiresAt,
      new Date(NOW + 10 * MINUTE).toISOString(),
    );
  });

  it('is absent for USSD', async () => {
    const { handler } = makeHandler();
    assert.equal('expiresAt' in (await orderOf(await handler(post(USSD_REQUEST)))), false);
  });

  it('is the same on a replay of the same Idempotency-Key later: a reload does not extend the account', async (t) => {
    clockAt(t, NOW);
    const { handler, calls } = makeHandler();
    const key = newKey();
    const first = await orderOf(await handler(post(TRANSFER_REQUEST, { 'idempotency-key': key })));
    t.mock.timers.setTime(NOW + 20 * MINUTE);
    const replayed = await orderOf(await handler(post(TRANSFER_REQUEST, { 'idempotency-key': key })));
    assert.equal(replayed.expiresAt, first.expiresAt);
    assert.equal(calls.length, 1);
  });

  for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '1800000']) {
    it(`refuses transferValidityMs ${String(bad)} when the handler is made`, () => {
      assert.throws(
        () => makeHandler({ transferValidityMs: bad as number }),
        (error: unknown) => error instanceof TypeError && /transferValidityMs/.test(error.message),
      );
    });
  }
});

describe('issue 18: order.fee', () => {
  function withFee(fee: unknown): Partial<SessionHandlerOptions> {
    return { order: () => ({ ...ORDER, fee }) as never };
  }

  for (const fee of ['50.00', '0', '2499.99']) {
    it(`passes the resolver's fee ${fee} to the widget, and charges exactly amount`, async () => {
      const { handler, calls } = makeHandler(withFee(fee));
      const order = await orderOf(await handler(post(TRANSFER_REQUEST)));
      assert.equal(order.fee, fee);
      assert.equal(order.amount, ORDER.amount);
      assert.equal(calls[0]!.body.amount, ORDER.amount, 'the gateway charges the amount, fee included');
      assert.equal('fee' in calls[0]!.body, false);
    });
  }

  it('leaves fee out when the resolver gives none', async () => {
    const { handler } = makeHandler();
    assert.equal('fee' in (await orderOf(await handler(post(USSD_REQUEST)))), false);
  });

  for (const fee of ['2500.00', '2500', '3000', '-1', '1.234', '1e2', ' 50', '', 50, null]) {
    it(`answers 500 internal, naming the field to onEvent only, for a fee of ${JSON.stringify(fee)}`, async () => {
      const { handler, calls, events } = makeHandler(withFee(fee));
      await readError(await handler(post(USSD_REQUEST)), 500, 'internal');
      assert.equal(calls.length, 0, 'nothing reaches the gateway');
      const last = events.at(-1);
      assert.ok(
        last?.type === 'internal-error' && last.where === 'order' && /fee/.test(last.detail ?? ''),
        JSON.stringify(last),
      );
    });
  }

  it('checkOrder reports a fee not below the amount by name', () => {
    assert.deepEqual(
      checkOrder({ ...ORDER, fee: ORDER.amount }, () => 'ref'),
      { ok: false, badFields: ['fee'] },
    );
  });
});

describe('issue 18: the browser schema of order', () => {
  const base = { paymentReference: 'order-42', amount: '2500.00', currency: 'NGN' };
  it('accepts an order without fee and expiresAt, and with them', () => {
    assert.ok(orderSchema.safeParse(base).success);
    assert.ok(orderSchema.safeParse({ ...base, fee: '50.00', expiresAt: '2025-03-01T10:45:02.000Z' }).success);
  });
  it('refuses a malformed fee or expiresAt', () => {
    for (const extra of [
      { fee: 50 },
      { fee: '5,0' },
      { expiresAt: 'in 30 minutes' },
      { expiresAt: 1_740_825_902_000 },
    ]) {
      assert.equal(orderSchema.safeParse({ ...base, ...extra }).success, false, JSON.stringify(extra));
    }
  });
});
