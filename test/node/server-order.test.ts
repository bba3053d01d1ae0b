/**
 * `order.ts` on its own: `OrderError.is` across copies of the package, and `checkOrder`, which holds
 * the merchant's resolver to the same rules (rules.ts) as the widget's hints.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkOrder, OrderError } from '../../src/server/session/order.js';

const ORDER = { amount: '1500', callbackUrl: 'https://shop.test/cb', redirectUrl: 'https://shop.test/' };
const newReference = () => 'pw-new';

describe('OrderError.is', () => {
  it('recognizes an OrderError from another copy of the package, where instanceof fails', async () => {
    // A second module instance, as when two versions of pay-widget are installed side by side.
    const copy = (await import(
      `../../src/server/session/order.ts?copy=${Date.now()}`
    )) as typeof import('../../src/server/session/order.js');
    assert.notEqual(copy.OrderError, OrderError);
    const foreign = new copy.OrderError('Sold out.', { status: 409, fields: { amount: 'No.' } });
    assert.equal(foreign instanceof OrderError, false);
    assert.equal(OrderError.is(foreign), true);
    assert.equal(copy.OrderError.is(new OrderError('x')), true);
    if (OrderError.is(foreign)) {
      assert.equal(foreign.status, 409);
      assert.deepEqual(foreign.fields, { amount: 'No.' });
    }
  });

  it('says no to other errors and look-alikes', () => {
    for (const value of [
      new Error('x'),
      Object.assign(new Error('x'), { name: 'OrderError', status: 422 }),
      { name: 'OrderError', message: 'x', status: 422 },
      null,
      undefined,
      'OrderError',
    ]) {
      assert.equal(OrderError.is(value), false, String(value));
    }
    assert.equal(OrderError.is(new OrderError('x')), true);
    class SoldOut extends OrderError {}
    assert.equal(OrderError.is(new SoldOut('x')), true);
  });
});

describe('checkOrder', () => {
  it('accepts the references the status endpoint accepts, up to 128 of letters, digits, . _ : / -', () => {
    for (const paymentReference of ['INV/2024/0042', 'order:42.a_b-c', 'r'.repeat(128)]) {
      const checked = checkOrder({ ...ORDER, paymentReference }, newReference);
      assert.ok(checked.ok, paymentReference);
      assert.equal(checked.order.paymentReference, paymentReference);
    }
    for (const paymentReference of ['', 'r'.repeat(129), 'order 42', 'a?b', 'a#b', 'INV\n1']) {
      assert.deepEqual(checkOrder({ ...ORDER, paymentReference }, newReference), {
        ok: false,
        badFields: ['paymentReference'],
      });
    }
  });

  it('holds amount, currency and country to the hints’ rules, and the amount above zero', () => {
    for (const amount of ['1', '1500.5', '1500.50', '999999999999.99'])
      assert.ok(checkOrder({ ...ORDER, amount }, newReference).ok, amount);
    for (const amount of ['0', '0.00', '-5', '1.234', '1e3', ' 1500', '1,500', '1'.repeat(13)]) {
      assert.deepEqual(checkOrder({ ...ORDER, amount }, newReference), { ok: false, badFields: ['amount'] }, amount);
    }
    assert.deepEqual(checkOrder({ ...ORDER, currency: 'NAIRA', country: 'NGA' }, newReference), {
      ok: false,
      badFields: ['currency', 'country'],
    });
    assert.deepEqual(checkOrder(ORDER, newReference), {
      ok: true,
      order: { ...ORDER, currency: 'NGN', country: 'NG', paymentReference: 'pw-new' },
    });
  });
});
