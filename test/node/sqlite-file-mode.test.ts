// Who may read the SQLite ledger's file: it holds customers' names, e-mails, phones and live status
// tokens, so the folder createSqliteStores makes is the process's account's alone (0700) and the
// file, its -wal and -shm are 0600 whatever the umask; an existing file or folder that other
// accounts may read is named in one console warning.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'libsql';
import { createSqliteStores } from '../../src/server/stores/sqlite/index.js';
import { entry } from './payment-store-contract.js';

const folder = mkdtempSync(join(tmpdir(), 'pay-widget-sqlite-mode-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(4, '0');

/** A payment written and read back, so that SQLite has made the -wal and -shm files. */
async function writeOne(file: string): Promise<void> {
  const stores = createSqliteStores(file);
  try {
    const payment = entry();
    assert.equal(await stores.payments.insert(payment), true);
    assert.notEqual(await stores.payments.get(payment.paymentReference), undefined);
    assert.ok(existsSync(`${file}-wal`) && existsSync(`${file}-shm`), 'WAL files made');
  } finally {
    stores.close();
  }
}

describe('the SQLite ledger’s file modes', () => {
  it('makes its folder 0700 and the file, -wal and -shm 0600 under a 022 umask, and warns of nothing', async (t) => {
    const warn = t.mock.method(console, 'warn', () => {});
    const previous = process.umask(0o022);
    try {
      const file = join(folder, 'made', 'by-pay-widget', 'ledger.db');
      await writeOne(file);
      assert.deepEqual(
        [join(folder, 'made'), join(folder, 'made', 'by-pay-widget'), file, `${file}-wal`, `${file}-shm`].map(mode),
        ['0700', '0700', '0600', '0600', '0600'],
      );
      await writeOne(file); // opened again: still nothing to warn of
    } finally {
      process.umask(previous);
    }
    assert.equal(warn.mock.callCount(), 0);
  });

  it('warns once, in one line naming the file, when an existing ledger or its folder is readable by others', async (t) => {
    const warn = t.mock.method(console, 'warn', () => {});
    const shared = join(folder, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o755);
    const file = join(shared, 'ledger.db');
    new Database(file).close();
    chmodSync(file, 0o644);
    await writeOne(file);
    await writeOne(file);
    assert.equal(warn.mock.callCount(), 1);
    const [message] = warn.mock.calls[0]!.arguments as [string];
    assert.match(message, /^pay-widget: /);
    assert.ok(message.includes(file) && message.includes('0644') && message.includes('0755'), message);
    assert.doesNotMatch(message, /\n/);
    assert.deepEqual(
      [shared, file].map(mode),
      ['0755', '0644'],
      'an existing file is the merchant’s: warned of, not changed',
    );
  });

  it('warns of a folder readable by others even when the file is 0600', async (t) => {
    const warn = t.mock.method(console, 'warn', () => {});
    const shared = join(folder, 'shared-folder');
    mkdirSync(shared);
    chmodSync(shared, 0o750);
    const file = join(shared, 'ledger.db');
    await writeOne(file);
    assert.equal(mode(file), '0600');
    assert.equal(warn.mock.callCount(), 1);
    assert.match(String(warn.mock.calls[0]!.arguments[0]), /0750/);
  });
});
