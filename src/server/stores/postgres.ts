// `pay-widget/server/postgres`: the idempotency store and the payment ledger in PostgreSQL, for
// several server instances, on one `pg` Pool (the `pg` package, an optional peer dependency):
//
//   import pg from 'pg';
//   import { createPostgresStores, migratePostgres } from 'pay-widget/server/postgres';
//   const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
//   await migratePostgres(pool); // or run pay-widget/src/server/stores/postgres.sql in your migrations
//   const { idempotency, payments } = createPostgresStores(pool);
//
// Every ledger change is a compare-and-set on `version`; the reconciler's claims take rows with
// `FOR UPDATE SKIP LOCKED`; `payments.fulfilInTransaction` runs `onPaid` in the transaction that
// marks the payment fulfilled, on at most `fulfilmentConnections` of the pool's connections at once.
// An entry still owed work never expires; a finished one is deleted after `paymentTtlMs`. Nothing
// here imports `pg`: any pool with its `query` and `connect` works.
import { postgresFulfil } from './postgres-fulfil.js';
import { postgresIdempotencyStore } from './postgres-idempotency.js';
import { postgresLedgerViews } from './postgres-ledger.js';
import { postgresPaymentStore, type LedgerSettings } from './postgres-payments.js';
import { tableNames, type PostgresPoolLike, type PostgresTableOptions } from './postgres-sql.js';
import type { IdempotencyStore, PaymentStore } from './types.js';

export { migratePostgres } from './postgres-schema.js';
export type { PostgresPoolClientLike, PostgresPoolLike, PostgresQueryable, PostgresTableOptions } from './postgres-sql.js';

export type PostgresStoresOptions = PostgresTableOptions & {
  /** How long a finished ledger entry (nothing owed on it) is kept; default 30 days. */
  paymentTtlMs?: number;
  /**
   * How many of the pool's connections may run `onPaid` at once, each in its transaction; further
   * fulfilments wait their turn in this process. Default half the pool's `max` (pg's default 10
   * gives 5). It must stay below `max`, so that new sessions, status polls and an `onPaid` that
   * borrows from the same pool always find a connection.
   */
  fulfilmentConnections?: number;
  /**
   * Clock, for tests: expiries are then reckoned by it. Default: expiries by the database's clock
   * (one clock for every instance), `fulfilledAt` by `Date.now`.
   */
  now?: () => number;
};

export type PostgresStores = {
  idempotency: IdempotencyStore;
  payments: PaymentStore & Required<Pick<PaymentStore, 'fulfilInTransaction'>>;
};

/** Both stores on one `pg` Pool whose tables `migratePostgres` (or postgres.sql) created. */
export function createPostgresStores(pool: PostgresPoolLike, options: PostgresStoresOptions = {}): PostgresStores {
  if (typeof pool?.query !== 'function' || typeof pool.connect !== 'function') {
    throw new TypeError('createPostgresStores: pass a pg Pool, e.g. new pg.Pool({ connectionString })');
  }
  const injected = options.now;
  const settings: LedgerSettings = {
    tables: tableNames(options),
    ttlMs: options.paymentTtlMs ?? 30 * 24 * 60 * 60 * 1000,
    clock: injected ? () => injected() : () => null,
  };
  const ledger = postgresPaymentStore(pool, settings);
  const fulfilInTransaction = postgresFulfil(pool, ledger, settings, injected ?? Date.now, fulfilmentConnections(pool, options.fulfilmentConnections));
  return {
    idempotency: postgresIdempotencyStore(pool, settings.tables, settings.clock),
    payments: { ...ledger, ...postgresLedgerViews(pool, settings.tables), fulfilInTransaction },
  };
}

/** The share of the pool fulfilment may hold: given, or half of it, and always below its size. */
function fulfilmentConnections(pool: PostgresPoolLike, given: number | undefined): number {
  const size = pool.options?.max;
  const connections = given ?? Math.max(1, Math.floor((size ?? 10) / 2));
  if (!Number.isInteger(connections) || connections < 1) {
    throw new TypeError('createPostgresStores: fulfilmentConnections must be a positive whole number');
  }
  if (size !== undefined && connections >= size) {
    throw new TypeError(
      `createPostgresStores: fulfilmentConnections (${connections}) must be below the pool's max (${size}), so that sessions find a connection while onPaid runs; give the pool max 2 or more`,
    );
  }
  return connections;
}
