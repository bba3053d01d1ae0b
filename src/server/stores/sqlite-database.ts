// The SQLite connection the stores share: opening the file (with the `libsql` driver, an optional
// peer dependency, loaded only when a path is given), the settings that make a committed payment
// durable and let several processes share the file, the tables made on first use, prepared
// statements kept per text, and write transactions that take the file's write lock up front.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { schemaSql, type SqliteTables } from './sqlite-schema.js';

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

type Row = Record<string, unknown>;

/** The shared connection, as the stores use it. */
export type SqliteConnection = {
  tables: SqliteTables;
  run(sql: string, ...values: SqliteValue[]): number;
  get(sql: string, ...values: SqliteValue[]): Row | undefined;
  all(sql: string, ...values: SqliteValue[]): Row[];
  /** `work` between BEGIN IMMEDIATE and COMMIT (rolled back on a throw): no other writer in between. */
  immediate<T>(work: () => T): T;
  close(): void;
};

const DRIVER = 'libsql';

/** Opens `file` with libsql, making its folder when missing. */
export function openDatabaseFile(file: string, busyTimeoutMs: number): SqliteDatabaseLike {
  let Database: new (file: string, options: { timeout: number }) => SqliteDatabaseLike;
  try {
    Database = createRequire(import.meta.url)(DRIVER) as typeof Database;
  } catch (error) {
    if ((error as { code?: string })?.code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(`createSqliteStores: the ${DRIVER} package is not installed (npm install ${DRIVER}), or pass an open database instead of a path`);
  }
  if (file !== ':memory:' && !file.startsWith('file:')) mkdirSync(dirname(file), { recursive: true });
  return new Database(file, { timeout: busyTimeoutMs });
}

/**
 * The connection's settings. WAL: readers never wait for the writer, and processes on one machine
 * share the file. synchronous=FULL: a commit is on disk before it returns, so a payment recorded
 * survives a killed process and a power cut. busy_timeout: a write waits this long for another
 * process's write instead of failing.
 */
function configure(db: SqliteDatabaseLike, busyTimeoutMs: number): void {
  db.exec(`PRAGMA busy_timeout = ${Math.ceil(busyTimeoutMs)}`);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
}

export function sqliteConnection(db: SqliteDatabaseLike, tables: SqliteTables, options: { busyTimeoutMs: number; owned: boolean }): SqliteConnection {
  configure(db, options.busyTimeoutMs);
  const statements = new Map<string, SqliteStatementLike>();
  let ready = false;

  function inTransaction<T>(work: () => T): T {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      try {
        db.exec('ROLLBACK');
      } catch {
        // Nothing was open any more (the failed statement ended the transaction).
      }
      throw error;
    }
  }

  /** The tables, made on first use (in a transaction of their own: processes may start together). */
  function ensureTables(): void {
    if (ready) return;
    inTransaction(() => db.exec(schemaSql(tables.prefix)));
    ready = true;
  }

  function immediate<T>(work: () => T): T {
    ensureTables();
    return inTransaction(work);
  }

  /** The statement for `sql`, prepared once. */
  function statement(sql: string): SqliteStatementLike {
    ensureTables();
    let prepared = statements.get(sql);
    if (prepared === undefined) {
      prepared = db.prepare(sql);
      statements.set(sql, prepared);
    }
    return prepared;
  }

  return {
    tables,
    run: (sql, ...values) => Number(statement(sql).run(...values).changes),
    get: (sql, ...values) => statement(sql).get(...values) as Row | undefined,
    all: (sql, ...values) => statement(sql).all(...values) as Row[],
    immediate,
    close() {
      if (options.owned) db.close?.();
    },
  };
}
