// `pay-widget ledger` over a shop's real ledger (SQLite and PostgreSQL): a sandbox shop with
// payments in every state, then what a person at the shop does with the command: the list of what
// needs them, a search by part of a phone number, an entry's history, retry (the server's sweep
// then fulfils it), resolve, and the CSV export read back with an RFC 4180 parser.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ledgerCommand } from '../../src/cli/ledger-command.js';
import type { GatewaySettings } from '../../src/cli/ledger-recheck.js';
import { createSandboxGateway, SANDBOX_PUBLIC_KEY, SANDBOX_SECRET_KEY } from '../../src/sandbox/index.js';
import type { QueryOutcome } from '../../src/server/gateway/gateway.js';
import { createGateway, createPayments, type Payment, type PaymentsStores } from '../../src/server/index.js';
import { createPostgresStores, migratePostgres } from '../../src/server/stores/postgres/index.js';
import { createSqliteStores } from '../../src/server/stores/sqlite/index.js';
import { createClient } from 'redis';
import { createRedisStores } from '../../src/server/stores/redis/index.js';
import { skip, usePostgres } from './postgres-fixture.js';
import { startRedisServer, type RedisServer } from './redis-server.js';
import { USSD_REQUEST } from './server-fixtures.js';

const ORIGIN = 'http://127.0.0.1:3000';
const HOUR = 60 * 60 * 1000;
const folder = mkdtempSync(join(tmpdir(), 'ledger-cli-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** Runs the command as a person would; its exit code and what it printed. */
async function ledger(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await ledgerCommand(
    args,
    { out: (line) => void out.push(line), err: (line) => void err.push(line) },
    Date.now,
    gatewaySettings,
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The server's settings `recheck` reads, pointed at the shop's sandbox. */
let gatewaySettings: GatewaySettings = { env: {} };

/** RFC 4180: fields split on commas, quoted fields with doubled quotes and line breaks inside, CRLF between records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const character = text[i]!;
    if (quoted) {
      if (character === '"' && text[i + 1] === '"') ((field += '"'), (i += 1));
      else if (character === '"') quoted = false;
      else field += character;
    } else if (character === '"') quoted = true;
    else if (character === ',') (record.push(field), (field = ''));
    else if (character === '\r' && text[i + 1] === '\n') {
      (record.push(field), records.push(record), (record = []), (field = ''), (i += 1));
    } else field += character;
  }
  record.push(field);
  records.push(record);
  return records;
}

/**
 * A shop on the sandbox with a payment in every state: paid and fulfilled, `onPaid` throwing, a
 * review of another amount, stale, a late success, never started. Its clock moves on by hours so
 * that the reconciler's schedule runs out.
 */
async function shopWithEveryState(stores: PaymentsStores) {
  let time = Date.now();
  const sandbox = createSandboxGateway();
  const real = createGateway({
    baseUrl: 'https://sandbox.invalid',
    publicKey: SANDBOX_PUBLIC_KEY,
    secretKey: SANDBOX_SECRET_KEY,
    fetch: (input, init) => sandbox.fetch(new Request(input, init)),
  });
  const answers = new Map<string, QueryOutcome>();
  const gateway = Object.assign(Object.create(real) as typeof real, {
    query: (reference: string, options?: { signal?: AbortSignal }) =>
      answers.has(reference) ? Promise.resolve(answers.get(reference)!) : real.query(reference, options),
  });
  gatewaySettings = {
    env: {
      PAY_BASE_URL: 'https://sandbox.invalid',
      PAY_PUBLIC_KEY: SANDBOX_PUBLIC_KEY,
      PAY_SECRET_KEY: SANDBOX_SECRET_KEY,
    },
    fetch: (input, init) => sandbox.fetch(new Request(input, init)),
  };
  const failing = new Set<string>();
  const fulfilled: string[] = [];
  const amounts = new Map<string, string>();
  const payments = createPayments({
    gateway,
    stores,
    order: async (request) => ({ amount: amounts.get(request.mobileNumber) ?? '5000.00', currency: 'NGN' }),
    onPaid: (payment) => {
      if (failing.has(payment.paymentReference)) throw new RangeError('the warehouse is closed');
      fulfilled.push(payment.paymentReference);
    },
    publicUrl: `${ORIGIN}/pay`,
    reconcile: false,
    statusSecret: 'ledger-cli-test-secret-0123456789abcdef',
    now: () => time,
  });
  const references: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  const names = ['paid', 'throws', 'review', 'stale', 'late', 'never'] as const;
  for (const [index, name] of names.entries()) {
    const mobileNumber = `0803555010${index}`;
    if (name === 'never') amounts.set(mobileNumber, '402');
    const fullName = name === 'review' ? '=HYPERLINK("x") Obi' : `Customer ${name}, "${index}"`;
    const response = await payments.handler(
      new Request(`${ORIGIN}/pay/session`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': `ledger-cli-${process.pid}-${stores.payments === undefined ? '' : name}-${time}`,
        },
        body: JSON.stringify({ ...USSD_REQUEST, fullName, mobileNumber, email: `${name}@shop.example` }),
      }),
    );
    const body = (await response.json()) as {
      order?: { paymentReference: string; statusToken: string };
      error?: { paymentReference?: string };
    };
    references[name] =
      body.order?.paymentReference ?? (await stores.payments.list!({ search: mobileNumber }))[0]!.paymentReference;
    if (body.order) tokens[name] = body.order.statusToken;
  }
  const poll = async (name: string) => {
    const url = new URL(`${ORIGIN}/pay/status`);
    url.search = new URLSearchParams({ paymentReference: references[name]!, statusToken: tokens[name]! }).toString();
    await (await payments.handler(new Request(url))).text();
  };
  failing.add(references.throws!);
  for (const name of ['paid', 'throws'] as const) sandbox.setStatus(references[name]!, 'SUCCESS');
  answers.set(references.review!, {
    kind: 'answer',
    state: 'SUCCESS',
    code: '00',
    amount: 4000,
    currency: 'NGN',
    message: undefined,
  });
  sandbox.setStatus(references.late!, 'FAILED');
  for (const name of ['paid', 'throws', 'review'] as const) await poll(name);
  // The reconciler's first look finds the late one failed; the gateway later says it was paid.
  time += 2 * 60 * 1000;
  await payments.sweep();
  answers.set(references.late!, {
    kind: 'answer',
    state: 'SUCCESS',
    code: '00',
    amount: 5000,
    currency: 'NGN',
    message: undefined,
  });
  // A day and more of the reconciler: the late payment is found paid, the unpaid one's schedule runs out.
  for (let hour = 0; hour < 26; hour += 1) {
    time += HOUR;
    await payments.sweep();
  }
  return {
    payments,
    sandbox,
    references,
    failing,
    fulfilled,
    close: () => Promise.all([payments.close(), sandbox.close()]),
  };
}

function ledgerCases(
  name: string,
  options: { skip?: boolean },
  setup: () => Promise<{ stores: PaymentsStores; flag: string[] }>,
) {
  describe(`pay-widget ledger on ${name}`, { ...options, timeout: 120_000 }, () => {
    it('lists what needs a person, finds a payment by part of a phone number, shows its history, retries, resolves and exports it', async () => {
      const { stores, flag } = await setup();
      const shop = await shopWithEveryState(stores);
      const { references: ref } = shop;
      try {
        const attention = await ledger('list', ...flag, '--needs-attention', '--json');
        assert.equal(attention.code, 0, attention.err);
        const rows = JSON.parse(attention.out) as { reference: string; needs: string }[];
        assert.deepEqual(
          new Set(rows.map((row) => row.reference)),
          new Set([ref.throws, ref.review, ref.stale, ref.late]),
        );
        assert.match(rows.find((row) => row.reference === ref.review)!.needs, /amount-mismatch/);
        assert.match(rows.find((row) => row.reference === ref.late)!.needs, /after-expiry/);
        assert.match(rows.find((row) => row.reference === ref.stale)!.needs, /stale/);
        assert.match(rows.find((row) => row.reference === ref.throws)!.needs, /onPaid failing/);

        const table = await ledger('list', ...flag, '--needs-attention');
        assert.equal(table.out.split('\n').length, 5, table.out);
        assert.match(
          table.out.split('\n')[0]!,
          /^REFERENCE\s+CREATED\s+AMOUNT\s+TYPE\s+STATE\s+FULFILLED\s+NEEDS A PERSON$/,
        );

        const found = await ledger('list', ...flag, '--search', '555 0103', '--json');
        assert.deepEqual(
          JSON.parse(found.out).map((row: { reference: string }) => row.reference),
          [ref.stale],
          'a partial phone number finds one',
        );

        const shown = await ledger('show', ref.throws!, ...flag);
        assert.equal(shown.code, 0, shown.err);
        const history = shown.out.slice(shown.out.indexOf('history:'));
        const whats = [...history.matchAll(/Z {2}(\S+)/g)].map((match) => match[1]);
        assert.deepEqual(
          whats.slice(0, 6),
          ['created', 'instructions', 'query-answered', 'paid', 'onPaid-started', 'onPaid-threw'],
          history,
        );
        assert.match(history, /onPaid-threw {2}RangeError/);
        assert.match(shown.out, /customer: +Customer throws/);

        shop.failing.clear();
        const retried = await ledger('retry', ref.throws!, ...flag);
        assert.equal(retried.code, 0, retried.err);
        await shop.payments.sweep();
        assert.ok(shop.fulfilled.includes(ref.throws!), 'the server’s sweep ran onPaid');
        assert.notEqual((await stores.payments.get(ref.throws!))?.fulfilledAt, undefined);

        // The stale one was paid after all: recheck finds it, and leaves its onPaid to the server.
        shop.sandbox.setStatus(ref.stale!, 'SUCCESS');
        const rechecked = await ledger('recheck', ref.stale!, ...flag);
        assert.equal(rechecked.code, 0, rechecked.err);
        assert.match(rechecked.out, /SUCCESS \(code 00\); the server's next sweep runs onPaid/);
        assert.ok(!shop.fulfilled.includes(ref.stale!), 'no merchant code ran in the command');
        assert.match(
          (await ledger('show', ref.stale!, ...flag)).out,
          /rechecked {2}\(by a person\)\n.*query-answered {2}SUCCESS \(code 00\)\n.*paid/,
        );
        await shop.payments.sweep();
        assert.ok(shop.fulfilled.includes(ref.stale!), 'the server’s sweep ran onPaid');

        for (const name of ['review', 'late'] as const) {
          const resolved = await ledger('resolve', ref[name]!, ...flag, '--note', `dealt with ${name}: refunded`);
          assert.equal(resolved.code, 0, resolved.err);
        }
        const none = await ledger('list', ...flag, '--needs-attention', '--json');
        assert.deepEqual(JSON.parse(none.out), [], 'resolved and fulfilled entries leave the list');
        assert.match(
          (await ledger('show', ref.review!, ...flag)).out,
          /resolved {2}dealt with review: refunded {2}\(by a person\)/,
        );

        const exported = await ledger('export', '--csv', ...flag);
        const [header, ...records] = parseCsv(exported.out);
        assert.equal(header![0], 'reference');
        const column = (record: string[], name: string) => record[header!.indexOf(name)]!;
        assert.equal(records.length, 6);
        for (const record of records) {
          const entry = (await stores.payments.get(column(record, 'reference')))!;
          assert.equal(column(record, 'amount'), entry.amount);
          assert.equal(column(record, 'state'), entry.state);
          assert.equal(column(record, 'created'), new Date(entry.createdAt).toISOString());
          assert.equal(column(record, 'customer_phone'), entry.customer?.phone);
          const name = entry.customer!.name!;
          assert.equal(
            column(record, 'customer_name'),
            name.startsWith('=') ? `'${name}` : name,
            'a formula is made text',
          );
        }
      } finally {
        await shop.close();
      }
    });

    it('refuses an unknown reference, a malformed date and a database that is not a ledger with one line and exit code 2', async () => {
      const { flag } = await setup();
      for (const args of [
        ['show', 'NO-SUCH-REFERENCE', ...flag],
        ['resolve', 'NO-SUCH-REFERENCE', '--note', 'x', ...flag],
        ['list', '--since', '2026-13-45', ...flag],
        ['export', '--csv', '--until', '2026-02-30', ...flag],
        ['list', '--until', 'yesterday', ...flag],
        ['list', '--state', 'PAID', ...flag],
        ['frobnicate', ...flag],
        ['recheck', 'NO-SUCH-REFERENCE', ...flag],
      ]) {
        const result = await ledger(...args);
        assert.equal(result.code, 2, `${args.join(' ')}: ${result.err}`);
        assert.equal(result.err.split('\n').length, 1, result.err);
        assert.equal(result.out, '');
      }
    });
  });
}

ledgerCases('SQLite', {}, async () => {
  const file = join(folder, `shop-${Math.random().toString(36).slice(2)}.db`);
  const stores = createSqliteStores(file);
  return { stores, flag: ['--sqlite', file] };
});

const postgres = usePostgres();
ledgerCases('PostgreSQL', { skip: Boolean(skip) }, async () => {
  const pool = postgres.shared();
  await migratePostgres(pool);
  await pool.query('TRUNCATE pay_widget_payments CASCADE');
  return { stores: createPostgresStores(pool), flag: ['--postgres', postgres.server().url] };
});

let redis: RedisServer | undefined;
const redisClients: { destroy(): void }[] = [];
after(async () => {
  for (const client of redisClients) client.destroy();
  await redis?.stop();
});
ledgerCases('Redis', {}, async () => {
  redis ??= await startRedisServer();
  const client = createClient({ url: redis.url });
  client.on('error', () => {});
  redisClients.push(client);
  await client.connect();
  await client.flushAll();
  return { stores: createRedisStores(client), flag: ['--redis', redis.url] };
});

describe('pay-widget ledger on a file that is not a ledger', () => {
  it('says so in one line, exits 2 and leaves the file as it was', async () => {
    const text = join(folder, 'notes.txt');
    writeFileSync(text, 'not a database at all, just some text that is long enough to be read');
    const before = readFileSync(text);
    for (const args of [
      ['list', '--sqlite', text],
      ['list', '--sqlite', join(folder, 'missing.db')],
    ]) {
      const result = await ledger(...args);
      assert.equal(result.code, 2, result.err);
      assert.equal(result.err.split('\n').length, 1);
    }
    assert.deepEqual(readFileSync(text), before);
    const other = join(folder, 'other.db');
    const { default: Database } = await import('libsql');
    const db = new Database(other);
    db.exec('CREATE TABLE customers (id INTEGER)');
    db.close();
    const result = await ledger('list', '--sqlite', other);
    assert.equal(result.code, 2);
    assert.match(result.err, /not a pay-widget ledger/);
    const peek = new Database(other);
    assert.deepEqual(
      (peek.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (row) => row.name,
      ),
      ['customers'],
      'nothing written',
    );
    peek.close();
  });
});
