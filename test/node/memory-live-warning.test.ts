// The memory stores with live keys: a restart would forget every pending payment, so the session
// handler says so once per process, naming the durable stores; never with the sandbox, test keys,
// or a durable store. The tests run in order: the warning is once per process.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, mock } from 'node:test';
import { SANDBOX_PUBLIC_KEY } from '../../src/sandbox/index.js';
import { createMemoryPaymentStore, createSessionHandler } from '../../src/server/internal.js';
import { isLiveGateway } from '../../src/server/stores/memory-warning.js';
import { createSqliteStores } from '../../src/server/stores/sqlite/index.js';
import { ORDER } from './server-fixtures.js';

const LIVE = { baseUrl: 'https://seerbitapi.com', publicKey: 'SBPUBK_LIVE7Q2M9X4K1P8R5T3W6Y' };
const SECRET = 'SBSECK_LIVE0A9B8C7D6E5F4G3H2I';

function handlerWith(gateway: { baseUrl: string; publicKey: string }, stores: object = {}) {
  return createSessionHandler({ ...gateway, accessToken: SECRET, order: () => ORDER, ...stores });
}

describe('the memory stores with live keys', () => {
  const folder = mkdtempSync(join(tmpdir(), 'pay-widget-warning-'));
  const sqlite = createSqliteStores(join(folder, 'ledger.db'));
  after(() => {
    sqlite.close();
    rmSync(folder, { recursive: true, force: true });
  });
  const warn = mock.method(console, 'warn', () => {});
  after(() => warn.mock.restore());

  it('tells live keys from the sandbox, the gateway’s test keys and gateways on this machine', () => {
    assert.equal(isLiveGateway(LIVE), true);
    assert.equal(
      isLiveGateway({ baseUrl: 'https://seerbitapi.com', publicKey: 'SBTESTPUBK_t4G7' }),
      false,
      'test keys',
    );
    assert.equal(
      isLiveGateway({ baseUrl: 'https://sandbox.pay-widget.invalid', publicKey: SANDBOX_PUBLIC_KEY }),
      false,
      'the sandbox',
    );
    assert.equal(isLiveGateway({ baseUrl: 'http://127.0.0.1:4010', publicKey: LIVE.publicKey }), false, 'this machine');
    assert.equal(isLiveGateway({ baseUrl: 'https://gateway.test', publicKey: LIVE.publicKey }), false, 'a test domain');
  });

  it('says nothing with the sandbox, test keys, or a durable ledger', () => {
    handlerWith({ baseUrl: 'https://sandbox.pay-widget.invalid', publicKey: SANDBOX_PUBLIC_KEY });
    handlerWith({ baseUrl: 'https://seerbitapi.com', publicKey: 'SBTESTPUBK_t4G7' });
    handlerWith(LIVE, { idempotency: sqlite.idempotency, payments: sqlite.payments });
    assert.equal(warn.mock.callCount(), 0);
  });

  it('warns once per process, naming SQLite, PostgreSQL and Redis, and never a key', () => {
    handlerWith(LIVE, { idempotency: sqlite.idempotency, payments: createMemoryPaymentStore() });
    handlerWith(LIVE);
    assert.equal(warn.mock.callCount(), 1);
    const message = String(warn.mock.calls[0]!.arguments[0]);
    for (const name of [
      'createSqliteStores',
      'pay-widget/server/sqlite',
      'createPostgresStores',
      'createRedisStores',
      'restart',
    ]) {
      assert.ok(message.includes(name), `names ${name}: ${message}`);
    }
    assert.ok(!message.includes(LIVE.publicKey) && !message.includes(SECRET));
  });
});
