// The PostgreSQL ledger on a real PostgreSQL: the PaymentStore contract, the idempotency store's
// claims and records, migrations, the shipped SQL file, expiry of finished entries, and the session
// handler on it while the database goes away and comes back.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { createSandboxGateway, SANDBOX_ACCESS_TOKEN, SANDBOX_PUBLIC_KEY } from '../../src/sandbox/index.js';
import { createSessionHandler, type IdempotencyRecord } from '../../src/server/internal.js';
import { createPostgresStores, migratePostgres } from '../../src/server/stores/postgres/index.js';
import { POSTGRES_SCHEMA_SQL } from '../../src/server/stores/postgres/schema.js';
import { entry, paymentStoreContract } from './payment-store-contract.js';
import { skip, usePostgres } from './postgres-fixture.js';
import { ORDER, post, readError, USSD_REQUEST } from './server-fixtures.js';

describe('the PaymentStore contract: PostgreSQL', { skip, timeout: 120_000 }, () => {
  const postgres = usePostgres();
  paymentStoreContract(async ({ now }) => (await postgres.stores({ now })).payments);
});

describe('createPostgresStores on a real PostgreSQL', { skip, timeout: 120_000 }, () => {
  const postgres = usePostgres();

  it('claims a key once, releases only its own claim, and lets a lapsed one be taken', async () => {
    let time = 1_000;
    const options = { tablePrefix: postgres.prefix(), now: () => time };
    const one = (await postgres.stores(options)).idempotency;
    const two = createPostgresStores(postgres.shared(), options).idempotency;
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

  it('of 20 concurrent claims on one key, from two pools, exactly one wins', async () => {
    const tablePrefix = postgres.prefix();
    const stores = [await postgres.stores({ tablePrefix }), createPostgresStores(postgres.pool(), { tablePrefix })];
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) => stores[i % 2]!.idempotency.claim('same', 60_000)),
    );
    assert.equal(claims.filter(Boolean).length, 1);
  });

  it('keeps records for the ttlMs given, by the database clock when given none', async () => {
    let time = 1_000;
    const { idempotency } = await postgres.stores({ now: () => time });
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
    const databaseClock = (await postgres.stores()).idempotency;
    await databaseClock.set('k', done, 60_000);
    assert.deepEqual(await databaseClock.get('k'), done);
    await databaseClock.set('k', done, -1);
    assert.equal(await databaseClock.get('k'), undefined);
  });

  it('migrates idempotently, however many instances start at once, in a schema too', async () => {
    const tablePrefix = postgres.prefix();
    await Promise.all(
      Array.from({ length: 4 }, () => migratePostgres(postgres.pool(), { tablePrefix, schema: `s_${tablePrefix}` })),
    );
    await migratePostgres(postgres.shared(), { tablePrefix, schema: `s_${tablePrefix}` });
    const { payments } = createPostgresStores(postgres.shared(), { tablePrefix, schema: `s_${tablePrefix}` });
    const payment = entry();
    assert.equal(await payments.insert(payment), true);
    const { rows } = await postgres
      .shared()
      .query('SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1', [`s_${tablePrefix}`]);
    assert.equal(rows[0].n, 4, 'payments, their history, idempotency records and claims');
  });

  it('ships postgres.sql, the DDL migratePostgres runs, and stores work on tables it created', async () => {
    // Written by the build from the one definition of the tables (run npm run build first).
    const file = readFileSync(new URL('../../dist/postgres.sql', import.meta.url), 'utf8');
    assert.equal(file, POSTGRES_SCHEMA_SQL);
    const schema = `file_${postgres.prefix()}`;
    const pool = postgres.shared();
    await pool.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}; ${file} SET search_path TO DEFAULT;`);
    const { payments } = createPostgresStores(pool, { schema });
    assert.equal(await payments.insert(entry()), true);
  });

  it('deletes finished entries once their time is up, never one still owed work or marked for review', async () => {
    let time = 1_000;
    const { payments } = await postgres.stores({ now: () => time, paymentTtlMs: 1_000 });
    const finished = entry({ state: 'FAILED', initiation: 'started' });
    const owed = entry({ state: 'SUCCESS', dueAt: 5 });
    const reviewed = entry({
      state: 'FAILED',
      initiation: 'started',
      review: { reason: 'amount-mismatch', since: 1, amountReceived: '4500' },
    });
    await payments.insert(finished);
    await payments.insert(owed);
    await payments.insert(reviewed);
    for (const payment of [finished, owed])
      await payments.appendHistory!(payment.paymentReference, { at: 1, what: 'created' });
    time += 1_000;
    // A bounded sweep runs every hundredth insert.
    for (let i = 0; i < 97; i++) await payments.insert(entry());
    assert.equal(await payments.get(finished.paymentReference), undefined);
    assert.equal((await payments.get(owed.paymentReference))?.state, 'SUCCESS');
    assert.equal((await payments.get(reviewed.paymentReference))?.review?.amountReceived, '4500');
    assert.deepEqual(await payments.history!(finished.paymentReference), [], 'its history goes with it');
    assert.equal((await payments.history!(owed.paymentReference)).length, 1, 'the history of an entry kept is kept');
  });

  it('refuses something that is not a pg Pool, and errors name no password', async () => {
    assert.throws(() => createPostgresStores({} as never), /createPostgresStores: pass a pg Pool/);
    assert.throws(() => createPostgresStores(postgres.shared(), { tablePrefix: 'x"; DROP' }), /tablePrefix must be/);
    const { default: pg } = await import('pg');
    const closed = new pg.Pool({
      connectionString: `postgres://shop:hunter2-secret@127.0.0.1:${postgres.server().port + 1}/shop`,
    });
    await assert.rejects(
      async () => createPostgresStores(closed).payments.get('ref'),
      (error: Error) => !`${error.message} ${error.stack}`.includes('hunter2'),
    );
    await closed.end();
  });
});

describe('the session handler on the PostgreSQL ledger', { skip, timeout: 120_000 }, () => {
  const postgres = usePostgres();

  it('records the payment, answers 503 while PostgreSQL is down without asking the gateway, and names the same payment after', async () => {
    const { idempotency, payments } = await postgres.stores();
    const sandbox = createSandboxGateway();
    const seen: string[] = [];
    const handler = createSessionHandler({
      baseUrl: 'https://sandbox.test',
      publicKey: SANDBOX_PUBLIC_KEY,
      accessToken: SANDBOX_ACCESS_TOKEN,
      // No paymentReference: the handler derives it from the Idempotency-Key.
      order: () => ({ amount: '2500.00', callbackUrl: ORDER.callbackUrl, redirectUrl: ORDER.redirectUrl }),
      fetch: async (input, init) => {
        seen.push(String(JSON.parse(String(init?.body)).paymentReference));
        return sandbox.fetch(input, init);
      },
      idempotency,
      payments,
    });
    const paid = { 'idempotency-key': `paid-${crypto.randomUUID()}` };
    const first = await handler(post(USSD_REQUEST, paid));
    assert.equal(first.status, 200);
    const reference = JSON.parse(await first.text()).data.payments.paymentReference as string;
    assert.equal((await payments.get(reference))?.state, 'PENDING', 'in the ledger');

    await postgres.server().stop();
    for (const headers of [paid, { 'idempotency-key': `new-${crypto.randomUUID()}` }]) {
      await readError(await handler(post(USSD_REQUEST, headers)), 503, 'server_busy');
    }
    assert.equal(seen.length, 1, 'nothing reached the gateway while PostgreSQL was down');

    await postgres.server().start();
    const retry = await handler(post(USSD_REQUEST, paid));
    assert.equal(retry.status, 200);
    assert.equal(JSON.parse(await retry.text()).data.payments.paymentReference, reference);
    assert.deepEqual(new Set(seen), new Set([reference]), 'one payment reference for the key');
    assert.equal((await payments.get(reference))?.amount, '2500.00', 'the ledger survived the restart');
  });
});
