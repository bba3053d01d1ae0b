// `pay-widget/server/postgres`: the idempotency store and the payment ledger in PostgreSQL, for
// several server instances, on one `pg` Pool (the `pg` package, an optional peer dependency):
//
//   import pg from 'pg';
//   import { createPostgresStores, migratePostgres } from 'pay-widget/server/postgres';
//   const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
//   await migratePostgres(pool); // or run pay-widget/server/postgres.sql in your migrations
//   const { idempotency, payments } = createPostgresStores(pool);
//
// Every ledger change is a compare-and-set on `version`; the reconciler's claims take rows with
// `FOR UPDATE SKIP LOCKED`; `payments.fulfilInTransaction` runs `onPaid` in the transaction that
// marks the payment fulfilled, on at most `fulfilmentConnections` of the pool's connections at once:
// by default few enough that, even with every `onPaid` borrowing one more connection from the pool
// for itself at a time, some stay for new sessions and status polls. Fulfilment leases and expiries
// go by the database's clock. An entry still owed work never expires; a finished one is deleted
// after `paymentTtlMs`. Nothing here imports `pg`: any pool with its `query` and `connect` works.
import { postgresFulfil } from './fulfil.js';
import { postgresIdempotencyStore } from './idempotency.js';
import { postgresLedgerViews } from './ledger.js';
import { postgresPaymentStore, type LedgerSettings } from './payments.js';
import { tableNames, type PostgresPoolLike, type PostgresTableOptions } from './sql.js';
import type { PaymentStore } from '../types.js';
import type { IdempotencyStore } from '../idempotency-types.js';

export { migratePostgres } from './schema.js';
export type { PostgresPoolClientLike, PostgresPoolLike, PostgresQueryable, PostgresTableOptions } from './sql.js';

export type PostgresStoresOptions = PostgresTableOptions & {
  /** How long a finished ledger entry (nothing owed on it) is kept; default 30 days. */
  paymentTtlMs?: number;
  /**
   * How many `onPaid` calls may run at once in this process, each in its transaction on one of the
   * pool's connections (one that outlived `onPaidTimeoutMs` counts until it ends); further
   * fulfilments wait their turn, at most `onPaidTimeoutMs`. Default: `(max - 1) / 2` rounded down,
   * at least 1 (pg's default 10 gives 4), so that while each `onPaid` also borrows a connection
   * of the same pool (one query at a time) at least one, and on pg's default two, stay for new
   * sessions and status polls. It must stay below `max`; a larger share than the default keeps
   * that promise only for an `onPaid` that writes through `db` alone.
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
  const fulfilInTransaction = postgresFulfil(
    pool,
    ledger,
    settings,
    injected ?? Date.now,
    fulfilmentConnections(pool, options.fulfilmentConnections),
  );
  return {
    idempotency: postgresIdempotencyStore(pool, settings.tables, settings.clock),
    payments: { ...ledger, ...postgresLedgerViews(pool, settings.tables), fulfilInTransaction },
  };
}

/**
 * The share of the pool fulfilment may hold: given, or by default few enough that each fulfilment
 * may hold two connections (its transaction's, and one its `onPaid` borrows) and one stays free.
 */
function fulfilmentConnections(pool: PostgresPoolLike, given: number | undefined): number {
  const size = pool.options?.max;
  const connections = given ?? Math.max(1, Math.floor(((size ?? 10) - 1) / 2));
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
