// A SQLite connection as the stores use it: the tables made on first use, prepared statements kept
// per text, synchronous reads, and writes inside BEGIN IMMEDIATE … COMMIT (the file's write lock
// taken up front, so no other process writes in between).
//
// Group commit, on the ledger's connection: with synchronous=FULL every COMMIT waits for the disk
// (milliseconds), so the writes this process makes in one turn of its event loop share one
// transaction, run and committed when the turn ends; each write's promise settles only once that
// COMMIT returned (or failed, for every write in it), so nothing is done on a write before it is on
// disk. The driver is synchronous, so the write lock is only ever held inside one synchronous call:
// a transaction left open across turns would make any other connection of this process (the shop's
// own, in `onPaid`) wait synchronously for a COMMIT that its wait keeps from coming.
import { configure, type SqliteDatabaseLike, type SqliteStatementLike, type SqliteValue } from './database.js';
import { schemaSql, type SqliteTables } from './schema.js';

type Row = Record<string, unknown>;

export type SqliteConnection = {
  tables: SqliteTables;
  /** Reads, at once; they see committed writes only (a write is run when its turn ends). */
  get(sql: string, ...values: SqliteValue[]): Row | undefined;
  all(sql: string, ...values: SqliteValue[]): Row[];
  /** A statement of the merchant's, prepared now (its syntax and tables checked) and not kept. */
  prepare(sql: string): SqliteStatementLike;
  /** One statement, inside `write` only: the number of rows it changed. */
  change(sql: string, ...values: SqliteValue[]): number;
  /** `work` (synchronous statements) inside a write transaction; settles once it is committed. */
  write<T>(work: () => T): Promise<T>;
  /** One statement in `write`: the number of rows it changed, once committed. */
  run(sql: string, ...values: SqliteValue[]): Promise<number>;
  close(): void;
};

export type ConnectionSettings = {
  busyTimeoutMs: number;
  synchronous: 'FULL' | 'NORMAL';
  /** Writes of one event-loop turn share one commit (the ledger's connection). */
  groupCommit: boolean;
  /** Close the database with the connection: createSqliteStores opened it. */
  owned: boolean;
};

/** After this turn's I/O and promises: Node's and Bun's `setImmediate`, else a zero timer. */
const immediate = (globalThis as { setImmediate?: (run: () => void) => unknown }).setImmediate;
const afterThisTurn = (run: () => void): unknown => (immediate ? immediate(run) : setTimeout(run, 0));

/** For undoing: nothing to undo (a failed statement may have ended the transaction) is no error. */
function quietly(db: SqliteDatabaseLike, sql: string): void {
  try {
    db.exec(sql);
  } catch {
    // nothing was open
  }
}

/** `work` between BEGIN IMMEDIATE and COMMIT, rolled back when it throws. */
function inTransaction<T>(db: SqliteDatabaseLike, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    quietly(db, 'ROLLBACK');
    throw error;
  }
}

/** A write's result, or what it (or its transaction) threw. */
type Outcome = { value: unknown } | { error: unknown };
type Queued = { work: () => unknown; settle: (outcome: Outcome) => void };

/**
 * The writes of one turn, run when it ends in one transaction, each in a savepoint of its own: the
 * ones that threw undone, the rest committed together. Throws when the transaction itself failed
 * (the lock not had within the busy timeout, the commit refused, or a failure that ended it).
 */
function runGroup(db: SqliteDatabaseLike, queue: Queued[]): Outcome[] {
  return inTransaction(db, () =>
    queue.map(({ work }) => {
      db.exec('SAVEPOINT pay_widget_write');
      try {
        const value = work();
        db.exec('RELEASE pay_widget_write');
        return { value };
      } catch (error) {
        try {
          db.exec('ROLLBACK TO pay_widget_write');
          db.exec('RELEASE pay_widget_write');
        } catch {
          throw error; // the failure ended the whole transaction (no savepoint left): every write in it fails
        }
        return { error };
      }
    }),
  );
}

/**
 * Group commit, on the ledger's connection. The writes are queued, not run, until the turn ends: the
 * file's write lock is then taken, held while they run (our statements, nothing else) and released
 * by the COMMIT, all in one synchronous stretch. So the lock is never held while other code runs
 * (a merchant's `onPaid`, the shop's own connection to the file, which would wait for a COMMIT its
 * synchronous wait keeps from coming, or begin a transaction within ours on a shared connection).
 */
function groupWriter(db: SqliteDatabaseLike, ensureTables: () => void) {
  let queue: Queued[] | undefined;

  function flush(): void {
    const taken = queue;
    queue = undefined;
    if (!taken) return;
    let outcomes: Outcome[];
    try {
      ensureTables();
      outcomes = runGroup(db, taken);
    } catch (error) {
      outcomes = taken.map(() => ({ error }));
    }
    taken.forEach((queued, index) => queued.settle(outcomes[index]!));
  }

  return {
    /** `work` in this turn's group, all of it or (when it throws) none of it; settles once committed. */
    write<T>(work: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (!queue) {
          queue = [];
          afterThisTurn(flush);
        }
        queue.push({
          work,
          settle: (outcome) => ('error' in outcome ? reject(outcome.error) : resolve(outcome.value as T)),
        });
      });
    },
    flush,
  };
}

export function sqliteConnection(
  db: SqliteDatabaseLike,
  tables: SqliteTables,
  settings: ConnectionSettings,
): SqliteConnection {
  configure(db, settings);
  const statements = new Map<string, SqliteStatementLike>();
  let ready = false;

  /** The tables, made on first use in a transaction of their own (processes may start together). */
  function ensureTables(): void {
    if (ready) return;
    inTransaction(db, () => db.exec(schemaSql(tables.prefix)));
    ready = true;
  }

  function statement(sql: string): SqliteStatementLike {
    let prepared = statements.get(sql);
    if (prepared === undefined) {
      ensureTables();
      prepared = db.prepare(sql);
      statements.set(sql, prepared);
    }
    return prepared;
  }

  const grouped = settings.groupCommit ? groupWriter(db, ensureTables) : undefined;
  const write: SqliteConnection['write'] =
    grouped?.write ??
    (async (work) => {
      ensureTables();
      return inTransaction(db, work);
    });
  const change = (sql: string, ...values: SqliteValue[]) => Number(statement(sql).run(...values).changes);
  return {
    tables,
    get: (sql, ...values) => statement(sql).get(...values) as Row | undefined,
    all: (sql, ...values) => statement(sql).all(...values) as Row[],
    prepare(sql) {
      ensureTables();
      return db.prepare(sql);
    },
    change,
    write,
    run: (sql, ...values) => write(() => change(sql, ...values)),
    close() {
      grouped?.flush();
      if (settings.owned) db.close?.();
    },
  };
}
