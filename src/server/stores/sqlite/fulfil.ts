// `onPaid`'s `db` on the SQLite ledger. Its writes are queued while `onPaid` runs and applied after
// it returned, in the short transaction that marks the payment fulfilled (a compare-and-set under
// the lease), so they commit with the mark, exactly once; when `onPaid` throws (also after it was
// given up), or a queued write fails, none of them is applied and the payment stays owed.
//
// Why queued, and not a transaction (or a savepoint in the ledger's) held open while `onPaid` runs:
// SQLite's write lock is the whole file's and the driver is synchronous. Held across the merchant's
// code, it makes every other writer wait: the shop's own connection in `onPaid` waits synchronously,
// blocking the very event loop that would release the lock, until its busy timeout fails it; and on
// a shared connection the shop's own BEGIN would be a transaction within a transaction.
import type { SqliteConnection } from './connection.js';
import type { SqliteStatementLike, SqliteValue } from './database.js';
import type { Payment, QueuedWrites } from '../types.js';

type Row = Record<string, unknown>;

/** What `onPaid` gets as `context.db` with the SQLite ledger. */
export type SqlitePaidDb = {
  /**
   * Queues a write (INSERT, UPDATE, DELETE) to run after `onPaid` returns, in the transaction that
   * marks the payment fulfilled. Prepared now, so a mistake in the SQL throws here; a write that
   * fails then (a constraint) fails `onPaid`. Reads do not see it.
   */
  run(sql: string, ...values: SqliteValue[]): void;
  /** Reads the file now, outside that transaction. */
  get(sql: string, ...values: SqliteValue[]): Row | undefined;
  all(sql: string, ...values: SqliteValue[]): Row[];
};

/** Statements that would end or alter the ledger's transaction, or the connection. */
const REFUSED = /^\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|PRAGMA|ATTACH|DETACH|VACUUM)\b/i;

/**
 * One run's queued writes. `updateEntry`: the ledger's compare-and-set as one statement, inside
 * the connection's `write` (the number of rows it changed).
 */
export function sqliteQueuedWrites(
  connection: SqliteConnection,
  updateEntry: (payment: Payment) => number,
): QueuedWrites {
  const queued: { statement: SqliteStatementLike; values: SqliteValue[] }[] = [];
  let sealed = false;
  const db: SqlitePaidDb = {
    run(sql, ...values) {
      if (sealed)
        throw new TypeError(
          "onPaid's db: a write queued after onPaid returned is never applied (await it inside onPaid)",
        );
      if (REFUSED.test(sql))
        throw new TypeError(
          "onPaid's db: no transaction or connection statements; its writes commit with the fulfilment mark",
        );
      queued.push({ statement: connection.prepare(sql), values });
    },
    get: (sql, ...values) => connection.prepare(sql).get(...values) as Row | undefined,
    all: (sql, ...values) => connection.prepare(sql).all(...values) as Row[],
  };

  async function update(payment: Payment): Promise<boolean | { failed: unknown }> {
    sealed = true;
    let failed: { failed: unknown } | undefined;
    try {
      return await connection.write(() => {
        if (updateEntry(payment) !== 1) return false;
        try {
          for (const { statement, values } of queued) statement.run(...values);
        } catch (error) {
          failed = { failed: error };
          throw error; // undoes the mark and the writes before this one
        }
        return true;
      });
    } catch (error) {
      if (failed) return failed;
      throw error;
    }
  }

  return { db, update };
}
