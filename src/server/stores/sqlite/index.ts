// `pay-widget/server/sqlite`: the idempotency store and the payment ledger in one SQLite file, durable
// with no server to run: the default on one machine, where several processes (PM2 cluster, Node's
// `cluster`) may share the file.
//
//   import { createSqliteStores } from 'pay-widget/server/sqlite';
//   const { idempotency, payments } = createSqliteStores('.pay-widget/ledger.db');
//
// A path is opened with the `libsql` package (an optional peer dependency: npm install libsql); an
// open database may be passed instead (libsql's or better-sqlite3's `Database`, node:sqlite's
// `DatabaseSync`). The connection is set to WAL, synchronous=FULL and a busy timeout; the tables are
// made on first use (or run pay-widget/server/sqlite.sql in your migrations). Every ledger change is
// a compare-and-set on `version` in one statement, a key's claim one statement, the reconciler's
// claims one BEGIN IMMEDIATE transaction; the ledger's writes of one event-loop turn share one commit,
// run when the turn ends (sqlite-connection.ts). Given a path, the idempotency records get a
// connection of their own with synchronous=NORMAL: a power cut may lose the last of them, and a retry
// then finds its payment in the ledger. The file, its folder when made here, and the -wal and -shm
// are for this account only (sqlite-file-mode.ts). Fulfilment runs under the lease on the entry,
// never in a transaction (a write transaction locks the whole file, and `onPaid` may be slow): what
// `onPaid` writes through its `db` is queued and committed with the fulfilment mark
// (sqlite-fulfil.ts). An entry still owed work never expires; a finished one is deleted after
// `paymentTtlMs`.
import { sqliteConnection } from './connection.js';
import { openDatabaseFile, type SqliteDatabaseLike } from './database.js';
import { sqliteIdempotencyStore } from './idempotency.js';
import { sqliteLedgerViews } from './ledger.js';
import { sqlitePaymentStore } from './payments.js';
import { sqliteTables } from './schema.js';
import type { PaymentStore } from '../types.js';
import type { IdempotencyStore } from '../idempotency-types.js';

export type { SqliteDatabaseLike, SqliteStatementLike, SqliteValue } from './database.js';
export type { SqlitePaidDb } from './fulfil.js';
export { SQLITE_SCHEMA_SQL } from './schema.js';

export type SqliteStoresOptions = {
  /** Prepended to every table and index name; default `pay_widget_`. Letters, digits and `_`. */
  tablePrefix?: string;
  /** How long a finished ledger entry (nothing owed on it) is kept; default 30 days. */
  paymentTtlMs?: number;
  /** How long a write waits for another process's write before failing (the handler then answers 503); default 5 s. */
  busyTimeoutMs?: number;
  /** Clock, for tests: expiries and claims are reckoned by it. Default `Date.now`. */
  now?: () => number;
};

export type SqliteStores = {
  idempotency: IdempotencyStore;
  /** With `queueWrites`: `onPaid` gets a `db` (`SqlitePaidDb`) whose writes commit with the fulfilment mark. */
  payments: PaymentStore & Required<Pick<PaymentStore, 'queueWrites'>>;
  /** Closes the file when createSqliteStores opened it; a database passed in stays open (it is yours). */
  close(): void;
};

/** Both stores in one SQLite file: a path (opened with `libsql`) or an open database. */
export function createSqliteStores(
  fileOrDatabase: string | SqliteDatabaseLike,
  options: SqliteStoresOptions = {},
): SqliteStores {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
  if (!(Number.isFinite(busyTimeoutMs) && busyTimeoutMs >= 0))
    throw new TypeError('createSqliteStores: busyTimeoutMs must be a finite number, 0 or more');
  const tables = sqliteTables(options.tablePrefix);
  const owned = typeof fileOrDatabase === 'string';
  if (!owned && (typeof fileOrDatabase?.prepare !== 'function' || typeof fileOrDatabase.exec !== 'function')) {
    throw new TypeError(
      "createSqliteStores: pass a file path, e.g. '.pay-widget/ledger.db', or an open database (libsql, better-sqlite3, node:sqlite)",
    );
  }
  const ledger = sqliteConnection(owned ? openDatabaseFile(fileOrDatabase, busyTimeoutMs) : fileOrDatabase, tables, {
    busyTimeoutMs,
    synchronous: 'FULL',
    groupCommit: true,
    owned,
  });
  const records = owned
    ? sqliteConnection(openDatabaseFile(fileOrDatabase, busyTimeoutMs), tables, {
        busyTimeoutMs,
        synchronous: 'NORMAL',
        groupCommit: false,
        owned,
      })
    : ledger;
  const now = options.now ?? Date.now;
  return {
    idempotency: sqliteIdempotencyStore(records, now),
    payments: {
      ...sqlitePaymentStore(ledger, { ttlMs: options.paymentTtlMs ?? 30 * 24 * 60 * 60 * 1000, now }),
      ...sqliteLedgerViews(ledger),
    },
    close() {
      ledger.close();
      if (records !== ledger) records.close();
    },
  };
}
