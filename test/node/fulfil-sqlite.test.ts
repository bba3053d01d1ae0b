// Fulfilment on the SQLite ledger with `onPaid` writing the shop's order into the same file, as the
// docs show: through the `db` it is given (queued, then committed with the fulfilment mark, or not
// at all), through the shop's own second connection, and through the very connection the ledger was
// given. Twenty payments settled at once: the ledger never holds the file's write lock while
// `onPaid` runs, so no write of the shop's waits for it or fails with SQLITE_BUSY.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'libsql';
import type { PaidContext, Payment, PaymentHook } from '../../src/server/index.js';
import { settlePayment, type SettleEvent } from '../../src/server/settlement/settle.js';
import {
  createSqliteStores,
  type SqlitePaidDb,
  type SqliteDatabaseLike,
} from '../../src/server/stores/sqlite/index.js';
import { entry } from './payment-store-contract.js';

const PAID = {
  kind: 'answer',
  state: 'SUCCESS',
  code: '00',
  amount: 5000,
  currency: 'NGN',
  message: undefined,
} as const;
const ORDERS = 'CREATE TABLE IF NOT EXISTS shop_orders (reference TEXT PRIMARY KEY, amount TEXT NOT NULL)';
const INSERT_ORDER = 'INSERT INTO shop_orders (reference, amount) VALUES (?, ?)';

const folder = mkdtempSync(join(tmpdir(), 'pay-widget-fulfil-sqlite-'));
after(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
const closers: (() => void)[] = [];
after(() => closers.forEach((close) => close()));

/** The shop's own connection to `file`, with the same busy timeout as the ledger's. */
function shopConnection(file: string): Database.Database {
  const shop = new Database(file, { timeout: 5_000 });
  shop.exec(ORDERS);
  closers.push(() => shop.close());
  return shop;
}

function ledger(fileOrDatabase: string | SqliteDatabaseLike = join(folder, `ledger-${++files}.db`)) {
  const stores = createSqliteStores(fileOrDatabase);
  closers.push(stores.close);
  return stores;
}

/** `count` payments in the ledger, still PENDING, as the session handler leaves them. */
async function pending(payments: ReturnType<typeof ledger>['payments'], count: number): Promise<Payment[]> {
  const made = Array.from({ length: count }, () => entry({ initiation: 'started', dueAt: 1 }));
  for (const payment of made) assert.equal(await payments.insert(payment), true);
  return Promise.all(made.map(async (payment) => (await payments.get(payment.paymentReference))!));
}

/** Settles every payment at once; the events heard, by type. */
async function settleAll(payments: ReturnType<typeof ledger>['payments'], owed: Payment[], onPaid: PaymentHook) {
  const events: SettleEvent[] = [];
  const results = await Promise.all(
    owed.map((payment) => settlePayment(payment, PAID, { payments, onPaid, emit: (event) => events.push(event) })),
  );
  return { results, errors: events.filter((event) => event.type === 'internal-error') };
}

function orderCount(shop: Database.Database, reference?: string): number {
  const row = reference
    ? shop.prepare('SELECT count(*) AS n FROM shop_orders WHERE reference = ?').get(reference)
    : shop.prepare('SELECT count(*) AS n FROM shop_orders').get();
  return Number((row as { n: number }).n);
}

describe('onPaid writing the order into the SQLite ledger’s own file', { timeout: 180_000 }, () => {
  it('through the shop’s own second connection: 20 payments at once, no SQLITE_BUSY, each order written once', async () => {
    const file = join(folder, `ledger-${++files}.db`);
    const { payments } = ledger(file);
    const shop = shopConnection(file);
    const owed = await pending(payments, 20);
    const calls = new Map<string, number>();
    const { results, errors } = await settleAll(payments, owed, async (payment) => {
      calls.set(payment.paymentReference, (calls.get(payment.paymentReference) ?? 0) + 1);
      await new Promise((resolve) => setImmediate(resolve));
      shop.prepare(INSERT_ORDER).run(payment.paymentReference, payment.amount);
    });
    assert.deepEqual(errors, []);
    assert.deepEqual(
      results.map((result) => result.kind === 'settled' && result.payment.fulfilledAt !== undefined),
      owed.map(() => true),
    );
    for (const payment of owed) assert.equal(orderCount(shop, payment.paymentReference), 1);
    assert.deepEqual([...new Set(calls.values())], [1]);
  });

  it('through the connection the ledger was given: the shop’s own transaction is no transaction within a transaction', async () => {
    const database = new Database(join(folder, `ledger-${++files}.db`), { timeout: 5_000 });
    closers.push(() => database.close());
    database.exec(ORDERS);
    const { payments } = ledger(database);
    const owed = await pending(payments, 20);
    const write = database.transaction((reference: string, amount: string) =>
      database.prepare(INSERT_ORDER).run(reference, amount),
    );
    const { errors } = await settleAll(payments, owed, async (payment) => {
      await new Promise((resolve) => setImmediate(resolve));
      write(payment.paymentReference, payment.amount);
    });
    assert.deepEqual(errors, []);
    assert.equal(Number((database.prepare('SELECT count(*) AS n FROM shop_orders').get() as { n: number }).n), 20);
  });

  it('through the db it is given: 20 payments at once, each order committed with its fulfilment mark, once', async () => {
    const file = join(folder, `ledger-${++files}.db`);
    const { payments } = ledger(file);
    const shop = shopConnection(file);
    const owed = await pending(payments, 20);
    // As a merchant types it: PaymentHook<SqlitePaidDb>, taken where any hook is.
    const onPaid: PaymentHook<SqlitePaidDb> = async (payment, { db }) => {
      assert.equal(
        db!.get('SELECT 1 AS found FROM shop_orders WHERE reference = ?', payment.paymentReference),
        undefined,
      );
      await new Promise((resolve) => setImmediate(resolve));
      db!.run(INSERT_ORDER, payment.paymentReference, payment.amount);
    };
    const { results, errors } = await settleAll(payments, owed, onPaid);
    assert.deepEqual(errors, []);
    assert.ok(results.every((result) => result.kind === 'settled' && result.payment.fulfilledAt !== undefined));
    assert.equal(orderCount(shop), 20);
    for (const payment of owed) assert.equal(orderCount(shop, payment.paymentReference), 1);
    // Settled again: nothing owed, onPaid not run, no second row.
    const again = await settleAll(
      payments,
      await Promise.all(owed.map(async (payment) => (await payments.get(payment.paymentReference))!)),
      async () => assert.fail('onPaid ran again'),
    );
    assert.deepEqual(again.errors, []);
    assert.equal(orderCount(shop), 20);
  });

  it('rolls back what onPaid wrote through db when it throws, leaves the payment owed, and commits it on the next try', async () => {
    const file = join(folder, `ledger-${++files}.db`);
    const { payments } = ledger(file);
    const shop = shopConnection(file);
    const [payment] = await pending(payments, 1);
    let fail = true;
    let calls = 0;
    const onPaid = async (paid: Payment, { db }: PaidContext) => {
      calls += 1;
      (db as SqlitePaidDb).run(INSERT_ORDER, paid.paymentReference, paid.amount);
      if (fail) throw new Error('the warehouse is down');
    };
    const first = await settleAll(payments, [payment!], onPaid);
    assert.deepEqual(
      first.errors.map((event) => event.type === 'internal-error' && event.where),
      ['onPaid'],
    );
    assert.equal(orderCount(shop), 0, 'the order write rolled back with the throw');
    const owed = (await payments.get(payment!.paymentReference))!;
    assert.deepEqual(
      [owed.state, owed.fulfilledAt, owed.fulfilAttempts, owed.dueAt !== undefined],
      ['SUCCESS', undefined, 1, true],
    );
    fail = false;
    const second = await settleAll(payments, [owed], onPaid);
    assert.deepEqual(second.errors, []);
    assert.equal(calls, 2);
    assert.equal(orderCount(shop, payment!.paymentReference), 1);
    assert.notEqual((await payments.get(payment!.paymentReference))?.fulfilledAt, undefined);
  });

  it('writes nothing of an onPaid given up at onPaidTimeoutMs that throws on its signal, and leaves the payment owed', async () => {
    const file = join(folder, `ledger-${++files}.db`);
    const { payments } = ledger(file);
    const shop = shopConnection(file);
    const [payment] = await pending(payments, 1);
    const events: SettleEvent[] = [];
    const onPaid: PaymentHook<SqlitePaidDb> = async (paid, { db, signal }) => {
      db!.run(INSERT_ORDER, paid.paymentReference, paid.amount);
      await new Promise((_resolve, reject) => signal!.addEventListener('abort', () => reject(signal!.reason)));
    };
    const server = setInterval(() => {}, 1_000); // the time limit's timer does not keep a process alive: a server does
    await settlePayment(payment!, PAID, {
      payments,
      onPaid,
      onPaidTimeoutMs: 100,
      emit: (event) => events.push(event),
    });
    clearInterval(server);
    assert.equal(events.filter((event) => event.type === 'onPaid-timeout').length, 1);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the abandoned call has thrown by now
    assert.equal(orderCount(shop), 0);
    const owed = (await payments.get(payment!.paymentReference))!;
    assert.deepEqual([owed.state, owed.fulfilledAt, owed.dueAt !== undefined], ['SUCCESS', undefined, true]);
  });

  it('treats a queued write that fails at commit as onPaid failing: nothing written, the payment owed', async () => {
    const file = join(folder, `ledger-${++files}.db`);
    const { payments } = ledger(file);
    const shop = shopConnection(file);
    const [payment] = await pending(payments, 1);
    shop.prepare(INSERT_ORDER).run(payment!.paymentReference, 'already there');
    const { errors } = await settleAll(payments, [payment!], async (paid, { db }) => {
      (db as SqlitePaidDb).run(
        'INSERT INTO shop_orders (reference, amount) VALUES (?, ?)',
        `${paid.paymentReference}-note`,
        'first',
      );
      (db as SqlitePaidDb).run(INSERT_ORDER, paid.paymentReference, paid.amount); // the primary key refuses it
    });
    // SqliteError, the constraint's: both writes were queued, and the second failed at commit.
    assert.deepEqual(
      errors.map((event) => event.type === 'internal-error' && [event.where, event.detail]),
      [['onPaid', 'SqliteError']],
    );
    assert.equal(orderCount(shop), 1, 'the first queued write rolled back with the second');
    const owed = (await payments.get(payment!.paymentReference))!;
    assert.deepEqual([owed.fulfilledAt, owed.fulfilAttempts], [undefined, 1]);
  });

  it('refuses a statement that would end the ledger’s transaction, and a write after onPaid returned', async () => {
    const { payments } = ledger();
    const [payment] = await pending(payments, 1);
    let kept: SqlitePaidDb | undefined;
    const { errors } = await settleAll(payments, [payment!], async (_paid, { db }) => {
      kept = db as SqlitePaidDb;
      assert.equal(typeof kept?.run, 'function');
      assert.throws(() => kept!.run('COMMIT'), TypeError);
    });
    assert.deepEqual(errors, []);
    assert.throws(() => kept!.run('SELECT 1'), TypeError);
  });
});
