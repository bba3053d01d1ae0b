// The SQLite ledger on real files: the PaymentStore contract, the idempotency store's claims and
// records across connections, the connection's settings, the shipped SQL file, expiry of finished
// entries, a file briefly locked by another process, and the session handler on it across a restart.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'libsql';
import { createSandboxGateway, SANDBOX_ACCESS_TOKEN, SANDBOX_PUBLIC_KEY } from '../../src/sandbox/index.js';
import { createSessionHandler, type IdempotencyRecord } from '../../src/server/internal.js';
import {
  createSqliteStores,
  SQLITE_SCHEMA_SQL,
  type SqliteStoresOptions,
} from '../../src/server/stores/sqlite/index.js';
import { entry, paymentStoreContract } from './payment-store-contract.js';
import { ORDER, post, USSD_REQUEST } from './server-fixtures.js';

const folder = mkdtempSync(join(tmpdir(), 'pay-widget-sqlite-'));
after(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;
const newFile = () => join(folder, `ledger-${++files}.db`);
const opened: { close(): void }[] = [];
after(() => opened.forEach((stores) => stores.close()));

function stores(file = newFile(), options: SqliteStoresOptions = {}) {
  const made = createSqliteStores(file, options);
  opened.push(made);
  return made;
}

describe('the PaymentStore contract: SQLite', () => {
  paymentStoreContract(({ now }) => stores(newFile(), { now }).payments);
});

describe('the PaymentStore contract: SQLite, two connections on one file', () => {
  // Inserts through one connection; the rest through either, in turn.
  paymentStoreContract(({ now }) => {
    const file = newFile();
    const [one, two] = [stores(file, { now }).payments, stores(file, { now }).payments];
    let turn = 0;
    const either = () => (++turn % 2 === 0 ? one : two);
    return {
      get: (reference) => either().get(reference),
      insert: (payment) => one.insert(payment),
      update: (payment) => either().update(payment),
      findByIdempotencyKey: (key) => either().findByIdempotencyKey(key),
      claimDue: (now, limit, holdMs) => either().claimDue(now, limit, holdMs),
      markDue: (reference, at) => either().markDue!(reference, at),
      appendHistory: (reference, event) => either().appendHistory!(reference, event),
      history: (reference) => either().history!(reference),
      list: (query) => either().list!(query),
    };
  });
});

describe('createSqliteStores on a file', () => {
  it('claims a key once across connections, releases only its own claim, and lets a lapsed one be taken', async () => {
    let time = 1_000;
    const file = newFile();
    const one = stores(file, { now: () => time }).idempotency;
    const two = stores(file, { now: () => time }).idempotency;
    assert.equal(await one.claim('k', 60_000), true);
    assert.equal(await two.claim('k', 60_000), false);
    await two.release('k');
    assert.equal(await two.claim('k', 60_000), false, 'two cannot release a claim it never got');
    await one.release('k');
    assert.equal(await two.claim('k', 50), true);
    time += 50;
    assert.equal(await one.claim('k', 60_000), true, 'a lapsed claim can be taken');
    await two.release('k');
    assert.equal(await two.claim('k', 60_000), false, 'releasing a lapsed claim does not free the new holder’s');
  });

  it('keeps records for the ttlMs given, and replaces them', async () => {
    let time = 1_000;
    const { idempotency } = stores(newFile(), { now: () => time });
    const record: IdempotencyRecord = { state: 'pending', fingerprint: 'f', order: ORDER };
    await idempotency.set('k', record, 60);
    assert.deepEqual(await idempotency.get('k'), record);
    time += 59;
    assert.deepEqual(await idempotency.get('k'), record);
    time += 1;
    assert.equal(await idempotency.get('k'), undefined, 'expired is absent');
    const done: IdempotencyRecord = { ...record, state: 'done', reply: { status: 200, body: '{"a":"é"}' } };
    await idempotency.set('k', done, 60);
    assert.deepEqual(await idempotency.get('k'), done, 'replaced');
  });

  it('sets WAL, synchronous=FULL and the busy timeout, and makes the tables on first use', async () => {
    const file = newFile();
    const made = stores(file, { busyTimeoutMs: 1_234 });
    const peek = new Database(file);
    const tables = () =>
      peek.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[];
    assert.deepEqual(tables(), [], 'nothing written before first use');
    await made.payments.get('nothing');
    assert.deepEqual(
      tables().map((table) => table.name),
      ['pay_widget_idempotency', 'pay_widget_idempotency_claims', 'pay_widget_payment_history', 'pay_widget_payments'],
    );
    assert.equal(
      (peek.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode,
      'wal',
      'WAL is kept in the file',
    );
    peek.close();

    const mine = new Database(newFile());
    createSqliteStores(mine, { tablePrefix: 'shop_' });
    assert.equal((mine.prepare('PRAGMA synchronous').get() as { synchronous: number }).synchronous, 2, 'FULL');
    assert.equal((mine.prepare('PRAGMA busy_timeout').get() as { timeout: number }).timeout, 5_000);
    mine.close();
  });

  it('ships sqlite.sql, the DDL it runs, and stores work on tables it created, in a database passed in', async () => {
    // Written by the build from the one definition of the tables (run npm run build first).
    const file = readFileSync(new URL('../../dist/sqlite.sql', import.meta.url), 'utf8');
    assert.equal(file, SQLITE_SCHEMA_SQL);
    const db = new Database(newFile());
    db.exec(file);
    const { payments, close } = createSqliteStores(db);
    const payment = entry();
    assert.equal(await payments.insert(payment), true);
    close();
    assert.equal(
      (await payments.get(payment.paymentReference))?.amount,
      '5000.00',
      'close leaves a database passed in open',
    );
    db.close();
  });

  it('deletes finished entries once their time is up, never one still owed work', async () => {
    let time = 1_000;
    const { payments } = stores(newFile(), { now: () => time, paymentTtlMs: 1_000 });
    const finished = entry({ state: 'FAILED', initiation: 'started' });
    const owed = entry({ state: 'SUCCESS', dueAt: 5 });
    const pending = entry({ state: 'PENDING', initiation: 'started', stale: true });
    const markedDue = entry({ state: 'FAILED', initiation: 'started' });
    for (const payment of [finished, owed, pending, markedDue]) await payments.insert(payment);
    assert.equal(await payments.markDue!(markedDue.paymentReference, time), true);
    for (const payment of [finished, owed])
      await payments.appendHistory!(payment.paymentReference, { at: 1, what: 'created' });
    time += 1_000;
    // A bounded sweep runs every hundredth insert.
    for (let i = 0; i < 96; i++) await payments.insert(entry());
    assert.equal(await payments.get(finished.paymentReference), undefined);
    assert.equal((await payments.get(owed.paymentReference))?.state, 'SUCCESS');
    assert.equal((await payments.get(pending.paymentReference))?.stale, true, 'unsettled stays');
    assert.equal((await payments.get(markedDue.paymentReference))?.dueAt, 1_000, 'finished, then marked due: stays');
    assert.deepEqual(await payments.history!(finished.paymentReference), [], 'its history goes with it');
    assert.equal((await payments.history!(owed.paymentReference)).length, 1, 'the history of an entry kept is kept');
  });

  it('waits for a write another process holds, within busyTimeoutMs, and fails beyond it', async () => {
    const file = newFile();
    const patient = stores(file, { busyTimeoutMs: 5_000 }).payments;
    const hasty = stores(file, { busyTimeoutMs: 0 }).payments;
    await patient.get('make the tables');
    const { released } = await holdWriteLock(file, 600);
    const started = performance.now();
    await assert.rejects(async () => hasty.insert(entry()), /locked|busy/i, 'no timeout: fails at once');
    assert.equal(await patient.insert(entry()), true, 'waited for the lock');
    assert.ok(performance.now() - started >= 300, 'it did wait');
    await released;
  });

  it('refuses what is neither a path nor a database, and a bad prefix', () => {
    assert.throws(() => createSqliteStores({} as never), /createSqliteStores: pass a file path/);
    assert.throws(() => createSqliteStores(newFile(), { tablePrefix: 'x"; DROP' }), /tablePrefix must be/);
    assert.throws(() => createSqliteStores(newFile(), { busyTimeoutMs: -1 }), /busyTimeoutMs/);
  });
});

/** Another process takes the file's write lock and keeps it `ms`; `released` once it let go. */
async function holdWriteLock(file: string, ms: number): Promise<{ released: Promise<void> }> {
  const script = `const D = require('libsql'); const db = new D(${JSON.stringify(file)});
    db.exec('BEGIN IMMEDIATE'); process.send('locked');
    setTimeout(() => { db.exec('COMMIT'); db.close(); process.exit(0); }, ${ms});`;
  const child = spawn(process.execPath, ['-e', script], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    cwd: process.cwd(),
  });
  const released = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise((resolve) => child.once('message', resolve));
  return { released };
}

describe('the SQLite ledger’s group commit', () => {
  /** A libsql database whose COMMITs are counted, and the next one failed when asked. */
  function counted() {
    const db = new Database(newFile());
    const seen = { commits: 0, failNext: false };
    const wrapped = {
      prepare: (sql: string) => db.prepare(sql),
      exec(sql: string) {
        if (sql === 'COMMIT' && seen.failNext) {
          seen.failNext = false;
          throw new Error('disk I/O error (the test)');
        }
        db.exec(sql);
        if (sql === 'COMMIT') seen.commits += 1;
      },
    };
    return { db, seen, stores: createSqliteStores(wrapped) };
  }

  it('commits the writes of one turn of the event loop once, and settles each only after that commit', async () => {
    const { db, seen, stores } = counted();
    await stores.payments.get('make the tables');
    const before = seen.commits;
    const settledAfter: number[] = [];
    const payments = Array.from({ length: 50 }, () => entry());
    const inserted = await Promise.all(
      payments.map((payment) =>
        Promise.resolve(stores.payments.insert(payment)).then((ok) => (settledAfter.push(seen.commits), ok)),
      ),
    );
    assert.deepEqual(new Set(inserted), new Set([true]));
    assert.equal(seen.commits - before, 1, 'one commit for the fifty');
    assert.ok(
      settledAfter.every((commits) => commits === before + 1),
      'none settled before the commit',
    );
    db.close();
  });

  it('rejects every write of a commit that failed, and keeps none of them', async () => {
    const { db, seen, stores } = counted();
    await stores.payments.get('make the tables');
    seen.failNext = true;
    const payments = Array.from({ length: 5 }, () => entry());
    const results = await Promise.allSettled(payments.map((payment) => stores.payments.insert(payment)));
    assert.deepEqual(
      results.map((result) => result.status),
      ['rejected', 'rejected', 'rejected', 'rejected', 'rejected'],
    );
    for (const payment of payments) assert.equal(await stores.payments.get(payment.paymentReference), undefined);
    assert.equal(await stores.payments.insert(payments[0]!), true, 'the next write works');
    db.close();
  });
});

describe('the session handler on the SQLite ledger', () => {
  it('names the same payment for a retry after the process restarted (the file kept it)', async () => {
    const file = newFile();
    const sandbox = createSandboxGateway();
    const seen: string[] = [];
    const handlerOn = (made: ReturnType<typeof stores>) =>
      createSessionHandler({
        baseUrl: 'https://sandbox.test',
        publicKey: SANDBOX_PUBLIC_KEY,
        accessToken: SANDBOX_ACCESS_TOKEN,
        order: () => ({
          amount: '2500.00',
          paymentReference: `order-${crypto.randomUUID()}`,
          callbackUrl: ORDER.callbackUrl,
          redirectUrl: ORDER.redirectUrl,
        }),
        fetch: async (input, init) => {
          seen.push(String(JSON.parse(String(init?.body)).paymentReference));
          return sandbox.fetch(input, init);
        },
        idempotency: made.idempotency,
        payments: made.payments,
      });
    const before = stores(file);
    const key = { 'idempotency-key': `paid-${crypto.randomUUID()}` };
    const first = await handlerOn(before)(post(USSD_REQUEST, key));
    assert.equal(first.status, 200);
    const reference = JSON.parse(await first.text()).order.paymentReference as string;
    before.close();

    const afterRestart = stores(file);
    const retry = await handlerOn(afterRestart)(post(USSD_REQUEST, key));
    assert.equal(retry.status, 200);
    assert.equal(
      JSON.parse(await retry.text()).order.paymentReference,
      reference,
      'the same payment, not a new random reference',
    );
    assert.deepEqual(seen, [reference], 'the gateway was asked once');
    assert.equal((await afterRestart.payments.get(reference))?.amount, '2500.00');
  });
});
