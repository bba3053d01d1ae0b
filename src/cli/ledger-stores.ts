// Opening the ledger `pay-widget ledger` reads: a SQLite file, a PostgreSQL URL or a Redis URL,
// each checked to be a pay-widget ledger before anything is written to it.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { PaymentStore } from '../server/stores/types.js';

/** Bad input: one line for the person, exit code 2, nothing written. */
export class LedgerUsageError extends Error {}

export type OpenLedger = { payments: PaymentStore; close(): Promise<void> };

export type LedgerSource = { sqlite?: string; postgres?: string; redis?: string };

const TABLE = 'pay_widget_payments';
const load = createRequire(import.meta.url);

export async function openLedger(source: LedgerSource): Promise<OpenLedger> {
  const given = Object.entries(source).filter(([, value]) => value !== undefined);
  if (given.length !== 1)
    throw new LedgerUsageError('name the ledger with one of --sqlite FILE, --postgres URL or --redis URL');
  if (source.sqlite !== undefined) return openSqlite(source.sqlite);
  if (source.postgres !== undefined) return openPostgres(source.postgres);
  return openRedis(source.redis!);
}

async function openSqlite(file: string): Promise<OpenLedger> {
  if (!existsSync(file)) throw new LedgerUsageError(`${file}: no such file`);
  const Database = load('libsql') as new (
    file: string,
    options?: { readonly?: boolean },
  ) => {
    prepare(sql: string): { get(...values: unknown[]): unknown };
    close(): void;
  };
  // Looked at read-only first: a file that is not ours is left exactly as it was.
  try {
    const peek = new Database(file, { readonly: true });
    try {
      if (!peek.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(TABLE))
        throw notOurs(file);
    } finally {
      peek.close();
    }
  } catch (error) {
    if (error instanceof LedgerUsageError) throw error;
    throw new LedgerUsageError(`${file}: not a SQLite database (${(error as Error).message.split('\n')[0]})`);
  }
  const { createSqliteStores } = await import('../server/stores/sqlite/index.js');
  const stores = createSqliteStores(file);
  return { payments: stores.payments, close: async () => stores.close() };
}

async function openPostgres(url: string): Promise<OpenLedger> {
  if (!URL.canParse(url) || !/^postgres(ql)?:$/.test(new URL(url).protocol)) {
    throw new LedgerUsageError('--postgres must be a URL like postgres://user@host:5432/shop');
  }
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  pool.on('error', () => {});
  try {
    const { rows } = await pool.query('SELECT to_regclass($1) AS found', [TABLE]);
    if (rows[0]?.found === null) throw notOurs('that database');
    const { createPostgresStores, migratePostgres } = await import('../server/stores/postgres/index.js');
    // Adds the history table to a ledger made before it existed; the rest is there already.
    await migratePostgres(pool);
    return { payments: createPostgresStores(pool).payments, close: () => pool.end() };
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}

async function openRedis(url: string): Promise<OpenLedger> {
  if (!URL.canParse(url) || !/^rediss?:$/.test(new URL(url).protocol))
    throw new LedgerUsageError('--redis must be a URL like redis://127.0.0.1:6379');
  const { createClient } = await import('redis');
  const client = createClient({ url, socket: { reconnectStrategy: false } });
  client.on('error', () => {});
  await client.connect();
  const { createRedisStores } = await import('../server/stores/redis/index.js');
  return { payments: createRedisStores(client).payments, close: async () => void (await client.quit()) };
}

function notOurs(where: string): LedgerUsageError {
  return new LedgerUsageError(`${where} is not a pay-widget ledger: it has no ${TABLE} table`);
}
