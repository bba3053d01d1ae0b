// A SQLite connection as the stores use it: the tables made on first use, prepared statements kept
// per text, synchronous reads, and writes inside BEGIN IMMEDIATE … COMMIT (the file's write lock
// taken up front, so no other process writes in between).
//
// Group commit, on the ledger's connection: with synchronous=FULL every COMMIT waits for the disk
// (milliseconds), so the writes this process makes in one turn of its event loop share one
// transaction, committed when the turn ends; each write's promise settles only once that COMMIT
// returned (or failed, for every write in it), so nothing is done on a write before it is on disk.
// The driver is synchronous: a connection waiting for the file's lock blocks its process, so a
// process never keeps a group open while another of its connections begins one (that one would
// wait for a turn that cannot come): an open group is committed first.
import { configure, type SqliteDatabaseLike, type SqliteStatementLike, type SqliteValue } from './sqlite-database.js';
import { schemaSql, type SqliteTables } from './sqlite-schema.js';

type Row = Record<string, unknown>;

export type SqliteConnection = {
  tables: SqliteTables;
  /** Reads; inside this connection's open group they see its writes. */
  get(sql: string, ...values: SqliteValue[]): Row | undefined;
  all(sql: string, ...values: SqliteValue[]): Row[];
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

/** Every group still open in this process, by its commit. */
const openGroups = new Set<() => void>();

function commitOpenGroups(): void {
  for (const commit of openGroups) commit();
}

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
  commitOpenGroups();
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

/** The writes of one event-loop turn in one transaction, committed when the turn ends. */
function groupWriter(db: SqliteDatabaseLike, ensureTables: () => void) {
  let group: { commit: () => void; committed: Promise<void> } | undefined;

  function openGroup(): NonNullable<typeof group> {
    ensureTables();
    commitOpenGroups();
    db.exec('BEGIN IMMEDIATE');
    let settle!: (error?: unknown) => void;
    const committed = new Promise<void>((resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))));
    const commit = () => {
      if (group?.commit !== commit) return;
      group = undefined;
      openGroups.delete(commit);
      try {
        db.exec('COMMIT');
        settle();
      } catch (error) {
        quietly(db, 'ROLLBACK');
        settle(error);
      }
    };
    openGroups.add(commit);
    afterThisTurn(commit);
    return (group = { commit, committed });
  }

  return {
    /** `work` in this turn's group, all of it or (when it throws) none of it. */
    async write<T>(work: () => T): Promise<T> {
      const { committed } = group ?? openGroup();
      db.exec('SAVEPOINT pay_widget_write');
      let result: T;
      try {
        result = work();
      } catch (error) {
        quietly(db, 'ROLLBACK TO pay_widget_write');
        throw error;
      } finally {
        // When the failure ended the whole transaction there is no savepoint left, and the COMMIT fails.
        quietly(db, 'RELEASE pay_widget_write');
      }
      await committed;
      return result;
    },
    flush: () => group?.commit(),
  };
}

export function sqliteConnection(db: SqliteDatabaseLike, tables: SqliteTables, settings: ConnectionSettings): SqliteConnection {
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
    change,
    write,
    run: (sql, ...values) => write(() => change(sql, ...values)),
    close() {
      grouped?.flush();
      if (settings.owned) db.close?.();
    },
  };
}
