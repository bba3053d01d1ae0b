// One throw-away PostgreSQL per test file, a pool on it, and a fresh table prefix per test: what the
// PostgreSQL ledger's test files share. `skip` says why they cannot run (no PostgreSQL), or is false.
import { after, before } from 'node:test';
import pg from 'pg';
import { findPostgres, missingPostgresMessage } from '../../scripts/ensure-postgres.mjs';
import {
  createPostgresStores,
  migratePostgres,
  type PostgresStoresOptions,
} from '../../src/server/stores/postgres/index.js';
import { startPostgresServer, type PostgresServer } from './postgres-server.js';

export const skip: string | false = findPostgres() ? false : `skipped: ${missingPostgresMessage()}`;

export function usePostgres() {
  const state = { server: undefined as PostgresServer | undefined, pools: [] as pg.Pool[] };
  let run = 0;

  before(async () => {
    if (!skip) state.server = await startPostgresServer();
  });
  after(async () => {
    await Promise.all(state.pools.map((pool) => pool.end().catch(() => {})));
    await state.server?.close();
  });

  function pool(): pg.Pool {
    const created = new pg.Pool({ connectionString: state.server!.url, max: 30 });
    // An idle client whose connection breaks (a restart) makes the pool emit 'error'; unheard, it ends the process.
    created.on('error', () => {});
    state.pools.push(created);
    return created;
  }

  let shared: pg.Pool | undefined;
  const prefix = () => `t${++run}_${process.pid}_`;
  return {
    server: () => state.server!,
    pool,
    shared: () => (shared ??= pool()),
    prefix,
    /** Migrated tables (under a new prefix unless given one), both stores on them, and the prefix. */
    async stores(options: PostgresStoresOptions = {}, on: pg.Pool = (shared ??= pool())) {
      const tablePrefix = options.tablePrefix ?? prefix();
      await migratePostgres(on, { ...options, tablePrefix });
      return { ...createPostgresStores(on, { ...options, tablePrefix }), tablePrefix };
    },
  };
}
