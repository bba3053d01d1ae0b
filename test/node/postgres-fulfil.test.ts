// fulfilInTransaction on a real PostgreSQL: what `onPaid` writes through the transaction's client
// commits with the fulfilment mark, or neither does; one caller at a time; a connection lost
// mid-work leaves the entry owed and free for the next caller.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type pg from 'pg';
import type { Payment } from '../../src/server/stores/types.js';
import { entry } from './payment-store-contract.js';
import { skip, usePostgres } from './postgres-fixture.js';

describe('fulfilInTransaction on a real PostgreSQL', { skip, timeout: 120_000 }, () => {
  const postgres = usePostgres();
  const time = 5_000_000;
  const retryAt = (attempts: number) => time + attempts * 60_000;
  let stores: Awaited<ReturnType<typeof postgres.stores>>;

  before(async () => {
    if (skip) return;
    stores = await postgres.stores({ now: () => time });
    await postgres.shared().query('CREATE TABLE shop_orders (reference text PRIMARY KEY, paid boolean NOT NULL)');
  });

  /** A verified payment owed `onPaid`, as the settling write leaves it. */
  async function owed(): Promise<Payment> {
    const payment = entry({ state: 'SUCCESS', initiation: 'started', dueAt: time - 1 });
    assert.equal(await stores.payments.insert(payment), true);
    return (await stores.payments.get(payment.paymentReference))!;
  }

  /** `onPaid` as a merchant writes it: the order marked paid through the transaction's client. */
  const markOrderPaid = async (payment: Payment, db: unknown) => {
    await (db as pg.PoolClient).query('INSERT INTO shop_orders (reference, paid) VALUES ($1, true)', [
      payment.paymentReference,
    ]);
  };

  async function orderRows(reference: string): Promise<number> {
    const { rows } = await postgres.shared().query('SELECT 1 FROM shop_orders WHERE reference = $1', [reference]);
    return rows.length;
  }

  it('commits what onPaid wrote with the fulfilment mark, and never runs it again', async () => {
    const payment = await owed();
    assert.equal(
      await stores.payments.fulfilInTransaction(payment.paymentReference, markOrderPaid, retryAt),
      'fulfilled',
    );
    assert.equal(await orderRows(payment.paymentReference), 1);
    const stored = (await stores.payments.get(payment.paymentReference))!;
    // Two writes: the lease taken before the transaction, and the mark that dropped it.
    const expected: Payment = { ...payment, fulfilledAt: time, version: payment.version + 2 };
    delete expected.dueAt;
    assert.deepEqual(stored, expected);
    let ranAgain = false;
    const again = await stores.payments.fulfilInTransaction(
      payment.paymentReference,
      async () => void (ranAgain = true),
      retryAt,
    );
    assert.equal(again, 'not-owed');
    assert.equal(ranAgain, false);
  });

  it('owes nothing on a payment not verified paid, or unknown', async () => {
    const pending = entry({ dueAt: time });
    await stores.payments.insert(pending);
    const never = async () => assert.fail('onPaid ran');
    assert.equal(await stores.payments.fulfilInTransaction(pending.paymentReference, never, retryAt), 'not-owed');
    assert.equal(await stores.payments.fulfilInTransaction('no-such-payment', never, retryAt), 'not-owed');
  });

  it('rolls back what onPaid wrote when it throws, rethrows, and moves the entry to its next try', async () => {
    const payment = await owed();
    const failure = new Error('the warehouse is down');
    const failing = async (paid: Payment, db: unknown) => {
      await markOrderPaid(paid, db);
      throw failure;
    };
    await assert.rejects(
      stores.payments.fulfilInTransaction(payment.paymentReference, failing, retryAt),
      (error) => error === failure,
    );
    assert.equal(await orderRows(payment.paymentReference), 0, 'the order write rolled back');
    const stored = (await stores.payments.get(payment.paymentReference))!;
    assert.equal(stored.fulfilledAt, undefined);
    assert.equal(stored.fulfilAttempts, 1);
    assert.equal(stored.dueAt, retryAt(1));
    await assert.rejects(stores.payments.fulfilInTransaction(payment.paymentReference, failing, retryAt));
    assert.equal((await stores.payments.get(payment.paymentReference))!.dueAt, retryAt(2), 'backs off by attempts');
    assert.equal(
      await stores.payments.fulfilInTransaction(payment.paymentReference, markOrderPaid, retryAt),
      'fulfilled',
    );
    assert.equal(await orderRows(payment.paymentReference), 1);
  });

  it('answers busy to a second caller while the first runs onPaid, on this pool or another', async () => {
    const payment = await owed();
    let finish!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = async (paid: Payment, db: unknown) => {
      started();
      await new Promise<void>((resolve) => (finish = resolve));
      await markOrderPaid(paid, db);
    };
    const first = stores.payments.fulfilInTransaction(payment.paymentReference, slow, retryAt);
    await running;
    const never = async () => assert.fail('a second onPaid ran');
    assert.equal(await stores.payments.fulfilInTransaction(payment.paymentReference, never, retryAt), 'busy');
    const elsewhere = await postgres.stores({ tablePrefix: stores.tablePrefix }, postgres.pool());
    assert.equal(await elsewhere.payments.fulfilInTransaction(payment.paymentReference, never, retryAt), 'busy');
    finish();
    assert.equal(await first, 'fulfilled');
    assert.equal(await orderRows(payment.paymentReference), 1);
  });

  it('markDue leaves a row that onPaid holds locked alone, at once, rather than wait for onPaid', async () => {
    const payment = await owed();
    await stores.payments.update({ ...payment, dueAt: time + 60_000 });
    let finish!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = async (paid: Payment, db: unknown) => {
      started();
      await new Promise<void>((resolve) => (finish = resolve));
      await markOrderPaid(paid, db);
    };
    const first = stores.payments.fulfilInTransaction(payment.paymentReference, slow, retryAt);
    await running;
    let marked: unknown;
    try {
      marked = await Promise.race([
        stores.payments.markDue!(payment.paymentReference, time),
        new Promise((resolve) => setTimeout(resolve, 2_000, 'waited')),
      ]);
    } finally {
      finish();
    }
    assert.equal(marked, false);
    assert.equal(await first, 'fulfilled');
  });

  it('leaves the entry owed, and free for the next caller, when the connection dies inside onPaid', async () => {
    const payment = await owed();
    const killedMidWork = async (paid: Payment, db: unknown) => {
      await markOrderPaid(paid, db);
      const client = db as pg.PoolClient;
      const { rows } = await client.query('SELECT pg_backend_pid() AS pid');
      await postgres.shared().query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      await client.query('SELECT 1');
    };
    await assert.rejects(stores.payments.fulfilInTransaction(payment.paymentReference, killedMidWork, retryAt));
    assert.equal(await orderRows(payment.paymentReference), 0, 'nothing of the dead transaction committed');
    const stored = (await stores.payments.get(payment.paymentReference))!;
    assert.equal(stored.fulfilledAt, undefined);
    assert.equal(stored.fulfilAttempts, 1);
    assert.equal(
      await stores.payments.fulfilInTransaction(payment.paymentReference, markOrderPaid, retryAt),
      'fulfilled',
    );
    assert.equal(await orderRows(payment.paymentReference), 1);
  });
});
