// `pay-widget ledger list` over a SQLite ledger of many entries (issue 37): fills a file with
// `count` entries (one in 50 needing a person, every one with a customer), then times the command's
// queries as a person runs them. node --import tsx scripts/bench-ledger-list.ts [count] [file]
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { ledgerCommand } from '../src/cli/ledger-command.js';
import { entryJson } from '../src/server/stores/entry-row.js';
import { createSqliteStores } from '../src/server/stores/sqlite/index.js';
import type { Payment } from '../src/server/stores/types.js';

const count = Number(process.argv[2] ?? 100_000);
const file = process.argv[3] ?? join(tmpdir(), `ledger-bench-${process.pid}.db`);
rmSync(file, { force: true });
const made = createSqliteStores(file);
await made.payments.get('nothing'); // the tables are made on first use
made.close();
const db = new Database(file);
const insert = db.prepare(
  'INSERT INTO pay_widget_payments (reference, idempotency_key, version, state, due_at, expires_at, payment) VALUES (?, ?, 1, ?, ?, NULL, ?)',
);
const start = Date.UTC(2026, 0, 1);
db.exec('BEGIN');
for (let i = 0; i < count; i += 1) {
  const attention = i % 50 === 0;
  const payment: Payment = {
    paymentReference: `pw-bench-${String(i).padStart(8, '0')}`,
    paymentType: i % 2 ? 'USSD' : 'TRANSFER',
    amount: `${1000 + (i % 9000)}.00`,
    currency: 'NGN',
    state: attention ? 'PENDING' : 'SUCCESS',
    version: 1,
    createdAt: start + i * 60_000,
    updatedAt: start + i * 60_000,
    ...(attention ? { stale: true } : { fulfilledAt: start + i * 60_000 + 5_000 }),
    customer: { name: `Customer ${i}`, phone: `0803${String(i).padStart(7, '0')}`, email: `c${i}@buyer.example` },
  };
  insert.run(payment.paymentReference, `key-${i}`, payment.state, null, entryJson(payment));
}
db.exec('COMMIT');
db.close();

const silent = { out: () => {}, err: (line: string) => console.error(line) };
for (const args of [
  ['list'],
  ['list', '--needs-attention'],
  ['list', '--search', '0803004217'],
  ['list', '--search', 'customer 99999'],
  ['list', '--since', '2026-02-01', '--until', '2026-02-02'],
]) {
  const times: number[] = [];
  for (let run = 0; run < 5; run += 1) {
    const began = performance.now();
    const code = await ledgerCommand([...args, '--sqlite', file], silent);
    times.push(performance.now() - began);
    if (code !== 0) throw new Error(`exit ${code}`);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${count} entries  ledger ${args.join(' ').padEnd(48)} median ${times[2]!.toFixed(0)} ms  (min ${times[0]!.toFixed(0)}, max ${times[4]!.toFixed(0)})`,
  );
}
if (process.argv[3] === undefined) rmSync(file, { force: true });
