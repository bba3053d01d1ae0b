/**
 * Issue 26, a countdown on the server's clock: the session answer's `order` carries the TRANSFER
 * account's time left as the server measured it when the answer left (`expiresInMs`, fresh on a
 * replay of the same key), and every status answer carries the server's `now`, which a resumed
 * widget reads the stored `expiresAt` against. Clocks are the handlers' `now` option.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { orderSchema, statusResponseSchema } from '../../src/contract/schemas.js';
import { createStatusHandler } from '../../src/server/internal.js';
import {
  makeHandler,
  newKey,
  post,
  STATUS_SECRET,
  statusTokenFor,
  TRANSFER_REQUEST,
  USSD_REQUEST,
} from './server-fixtures.js';

const NOW = Date.UTC(2025, 2, 1, 10, 15, 2);
const MINUTE = 60_000;

/** A clock the test moves. */
function serverClock(start = NOW) {
  let time = start;
  return { now: () => time, set: (to: number) => void (time = to) };
}

async function orderOf(response: Response): Promise<Record<string, unknown>> {
  assert.equal(response.status, 200, await response.clone().text());
  const { order } = (await response.json()) as { order: Record<string, unknown> };
  assert.ok(orderSchema.safeParse(order).success, JSON.stringify(order));
  return order;
}

describe('issue 26: order.expiresInMs', () => {
  it('is the account’s time left on the server’s clock, beside expiresAt', async () => {
    const clock = serverClock();
    const { handler } = makeHandler({ now: clock.now });
    const order = await orderOf(await handler(post(TRANSFER_REQUEST)));
    assert.equal(order.expiresAt, new Date(NOW + 30 * MINUTE).toISOString());
    assert.equal(order.expiresInMs, 30 * MINUTE);
  });

  it('is what is left when a stored answer is replayed later: the same expiresAt, less time', async () => {
    const clock = serverClock();
    const { handler, calls } = makeHandler({ now: clock.now, transferValidityMs: 20 * MINUTE });
    const key = newKey();
    const first = await orderOf(await handler(post(TRANSFER_REQUEST, { 'idempotency-key': key })));
    clock.set(NOW + 12 * MINUTE + 500);
    const replayed = await orderOf(await handler(post(TRANSFER_REQUEST, { 'idempotency-key': key })));
    assert.equal(calls.length, 1, 'one payment');
    assert.equal(replayed.expiresAt, first.expiresAt);
    assert.equal(replayed.expiresInMs, 8 * MINUTE - 500);
    clock.set(NOW + 45 * MINUTE);
    assert.equal(
      (await orderOf(await handler(post(TRANSFER_REQUEST, { 'idempotency-key': key })))).expiresInMs,
      0,
      'never below 0',
    );
  });

  it('is absent for USSD, which has no expiry', async () => {
    const { handler } = makeHandler({ now: serverClock().now });
    const order = await orderOf(await handler(post(USSD_REQUEST)));
    assert.equal('expiresInMs' in order, false);
  });

  it('refuses a now that is not a function when the handler is made', () => {
    assert.throws(
      () => makeHandler({ now: 5 as never }),
      (error: unknown) => error instanceof TypeError && /now/.test(error.message),
    );
  });

  it('the widget’s schema refuses a negative or textual expiresInMs', () => {
    const base = {
      paymentReference: 'order-42',
      amount: '2500.00',
      currency: 'NGN',
      expiresAt: '2025-03-01T10:45:02.000Z',
    };
    assert.ok(orderSchema.safeParse({ ...base, expiresInMs: 1_800_000 }).success);
    for (const expiresInMs of [-1, '1800000'])
      assert.equal(orderSchema.safeParse({ ...base, expiresInMs }).success, false);
  });
});

describe('issue 26: the status answer’s now', () => {
  it('is the server’s clock when it answered, in ISO 8601 UTC, whatever lookup answers', async () => {
    const clock = serverClock();
    const handler = createStatusHandler({
      statusSecret: STATUS_SECRET,
      lookup: () => ({ status: 'PENDING' }),
      now: clock.now,
    });
    const ask = async () => {
      const token = await statusTokenFor('order-1');
      const response = await handler(
        new Request(`https://shop.test/api/pay/status?paymentReference=order-1&statusToken=${token}`),
      );
      assert.equal(response.status, 200);
      return statusResponseSchema.parse(await response.json());
    };
    assert.deepEqual(await ask(), { status: 'PENDING', now: '2025-03-01T10:15:02.000Z' });
    clock.set(NOW + 7 * MINUTE);
    assert.equal((await ask()).now, '2025-03-01T10:22:02.000Z');
  });
});
