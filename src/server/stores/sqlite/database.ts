// Opening the SQLite file (with the `libsql` driver, an optional peer dependency, loaded only when a
// path is given) and the settings that make a committed payment durable and let several processes
// share the file; what the stores need of a driver, structurally.
// Named apart: a bundle's banner often declares its own `createRequire` (esbuild's ESM recipe).
import { createRequire as requireFrom } from 'node:module';
import { prepareLedgerFile } from './file-mode.js';

/** A value bound to a statement's `?`. */
export type SqliteValue = string | number | null;

/** What is used of a prepared statement: better-sqlite3's, libsql's and node:sqlite's all fit. */
export type SqliteStatementLike = {
  run(...values: SqliteValue[]): { changes: number | bigint };
  get(...values: SqliteValue[]): unknown;
  all(...values: SqliteValue[]): unknown[];
};

/**
 * What is used of an open database, structurally (nothing here imports a driver): `libsql`'s and
 * better-sqlite3's `Database`, node:sqlite's `DatabaseSync` (Node 22.5+) and Bun's `Database` fit.
 */
export type SqliteDatabaseLike = {
  prepare(sql: string): SqliteStatementLike;
  exec(sql: string): unknown;
  close?(): unknown;
};

const DRIVER = 'libsql';

/** Opens `file` with libsql, making it and its folder, for this account only, when missing. */
export function openDatabaseFile(file: string, busyTimeoutMs: number): SqliteDatabaseLike {
  let Database: new (file: string, options: { timeout: number }) => SqliteDatabaseLike;
  try {
    Database = requireFrom(import.meta.url)(DRIVER) as typeof Database;
  } catch (error) {
    if ((error as { code?: string })?.code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(
      `createSqliteStores: the ${DRIVER} package is not installed (npm install ${DRIVER}), or pass an open database instead of a path`,
    );
  }
  if (file !== '' && file !== ':memory:' && !file.startsWith('file:')) prepareLedgerFile(file);
  return new Database(file, { timeout: busyTimeoutMs });
}

/**
 * The connection's settings. WAL: readers never wait for the writer, and processes on one machine
 * share the file. synchronous: FULL for the ledger, whose commit is on disk before it returns, so a
 * payment recorded survives a killed process and a power cut; NORMAL where losing the last commits
 * to a power cut harms nothing (the idempotency records: a retry finds its payment in the ledger).
 * busy_timeout: a write waits this long for another process's write instead of failing.
 */
export function configure(
  db: SqliteDatabaseLike,
  settings: { busyTimeoutMs: number; synchronous: 'FULL' | 'NORMAL' },
): void {
  db.exec(`PRAGMA busy_timeout = ${Math.ceil(settings.busyTimeoutMs)}`);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(`PRAGMA synchronous = ${settings.synchronous}`);
}
