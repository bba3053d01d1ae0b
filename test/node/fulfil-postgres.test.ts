// Fulfilment through the one transition on the PostgreSQL ledger: `settlePayment` runs `onPaid`
// inside `fulfilInTransaction`, so `context.db` is the transaction's client and what `onPaid`
// writes through it commits with the fulfilment mark, or (when it throws) neither does.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type pg from 'pg';
import type { PaidContext, Payment } from '../../src/server/internal.js';
import { settlePayment } from '../../src/server/settlement/settle.js';
import { entry } from './payment-store-contract.js';
import { skip, usePostgres } from './postgres-fixture.js';

const PAID = {
  kind: 'answer',
  state: 'SUCCESS',
  code: '00',
  amount: 5000,
  currency: 'NGN',
  message: undefined,
} as const;

describe('settlePayment on the PostgreSQL ledger: onPaid in the transaction', { skip, timeout: 120_000 }, () => {
  const postgres = usePostgres();
  let stores: Awaited<ReturnType<typeof postgres.stores>>;

  before(async () => {
    if (skip) return;
    stores = await postgres.stores();
    await postgres.shared().query('CREATE TABLE fulfil_orders (reference text PRIMARY KEY)');
  });

  it('gives onPaid the transaction as db, commits its write with the mark, rolls both back on a throw, and retries', async () => {
    const payment = entry({ paymentReference: 'pg-fulfil-1', amount: '5000.00', currency: 'NGN' });
    assert.equal(await stores.payments.insert(payment), true);
    let fail = true;
    let calls = 0;
    const onPaid = async (paid: Payment, { db }: PaidContext) => {
      calls += 1;
      await (db as pg.PoolClient).query('INSERT INTO fulfil_orders (reference) VALUES ($1)', [paid.paymentReference]);
      if (fail) throw new Error('after the write');
    };
    const context = { payments: stores.payments, onPaid, emit: () => {} };
    const first = await settlePayment((await stores.payments.get('pg-fulfil-1'))!, PAID, context);
    assert.deepEqual(
      [
        first.kind,
        first.kind === 'settled' && first.payment.state,
        first.kind === 'settled' && first.payment.fulfilledAt,
      ],
      ['settled', 'SUCCESS', undefined],
    );
    assert.equal(
      (await postgres.shared().query('SELECT 1 FROM fulfil_orders')).rows.length,
      0,
      'rolled back with the throw',
    );
    fail = false;
    await settlePayment((await stores.payments.get('pg-fulfil-1'))!, PAID, context);
    await settlePayment((await stores.payments.get('pg-fulfil-1'))!, PAID, context);
    assert.equal(calls, 2);
    assert.equal((await postgres.shared().query('SELECT 1 FROM fulfil_orders')).rows.length, 1);
    assert.notEqual((await stores.payments.get('pg-fulfil-1'))?.fulfilledAt, undefined);
  });
});
