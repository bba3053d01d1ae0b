// The payment ledger on SQLite: one row per entry, every change a compare-and-set on `version` in one
// statement, the reconciler's claims one write (under the file's write lock: no other process writes
// in between, so each due entry goes to one sweeper). A finished entry gets an expiry, and every so
// many inserts one bounded batch of expired ones is deleted.
import { entryJson, fromRow } from '../entry-row.js';
import { isFinished } from '../finished.js';
import type { SqliteConnection } from './connection.js';
import type { SqliteValue } from './database.js';
import { sqliteQueuedWrites } from './fulfil.js';
import type { Payment, PaymentStore } from '../types.js';

export type SqliteLedgerSettings = {
  /** How long a finished entry is kept, ms. */
  ttlMs: number;
  now: () => number;
};

const COLUMNS = 'reference, idempotency_key, version, due_at, payment';
const SWEEP_EVERY = 100;
const SWEEP_BATCH = 500;

export function sqlitePaymentStore(
  db: SqliteConnection,
  settings: SqliteLedgerSettings,
): PaymentStore & Required<Pick<PaymentStore, 'queueWrites'>> {
  const table = db.tables.payments;
  let inserts = 0;

  /** state, due_at, expires_at (null while something is owed), payment JSON. */
  function columns(payment: Payment): SqliteValue[] {
    const expiresAt = isFinished(payment) ? settings.now() + settings.ttlMs : null;
    return [payment.state, payment.dueAt ?? null, expiresAt, entryJson(payment)];
  }

  function selectOne(where: string, value: string): Payment | undefined {
    const row = db.get(`SELECT ${COLUMNS} FROM ${table} WHERE ${where} = ?`, value);
    return row && fromRow(row);
  }

  /** The compare-and-set, inside `db.write`: the rows changed. The key column stays as inserted. */
  function updateEntry(payment: Payment): number {
    return db.change(
      `UPDATE ${table} SET version = version + 1, state = ?, due_at = ?, expires_at = ?, payment = ?
       WHERE reference = ? AND version = ?`,
      ...columns(payment),
      payment.paymentReference,
      payment.version,
    );
  }

  return {
    get: async (paymentReference) => selectOne('reference', paymentReference),
    findByIdempotencyKey: async (key) => selectOne('idempotency_key', key),
    async insert(payment) {
      const inserted = await db.run(
        `INSERT INTO ${table} (reference, idempotency_key, version, state, due_at, expires_at, payment)
         VALUES (?, ?, 1, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        payment.paymentReference,
        payment.idempotencyKey ?? null,
        ...columns(payment),
      );
      // The next sweep takes what this one could not: an expired entry left a while longer harms nothing.
      if (++inserts % SWEEP_EVERY === 0) await sweepExpired(db, settings.now()).catch(() => {});
      return inserted === 1;
    },
    update: async (payment) => (await db.write(() => updateEntry(payment))) === 1,
    async markDue(paymentReference, at) {
      const changed = await db.run(
        `UPDATE ${table} SET due_at = ?, expires_at = NULL, version = version + 1
         WHERE reference = ? AND (due_at IS NULL OR due_at > ?)`,
        at,
        paymentReference,
        at,
      );
      return changed === 1;
    },
    claimDue: (now, limit, holdMs) => claimDue(db, now, limit, holdMs),
    queueWrites: () => sqliteQueuedWrites(db, updateEntry),
  };
}

/** One bounded batch of the entries expired by `now`, deleted. */
function sweepExpired(db: SqliteConnection, now: number): Promise<number> {
  const table = db.tables.payments;
  return db.run(
    `DELETE FROM ${table}
     WHERE reference IN (SELECT reference FROM ${table} WHERE expires_at <= ? LIMIT ${SWEEP_BATCH})`,
    now,
  );
}

/** The entries due by `now`, soonest first, each held until `now + holdMs`, in one write. */
function claimDue(db: SqliteConnection, now: number, limit: number, holdMs: number): Promise<Payment[]> {
  const table = db.tables.payments;
  return db.write(() => {
    const rows = db.all(
      `SELECT ${COLUMNS} FROM ${table} WHERE due_at <= ? ORDER BY due_at LIMIT ?`,
      now,
      Math.max(0, Math.floor(limit)),
    );
    const holdUntil = now + holdMs;
    return rows.map((row) => {
      db.change(
        `UPDATE ${table} SET due_at = ?, version = version + 1 WHERE reference = ?`,
        holdUntil,
        String(row.reference),
      );
      return { ...fromRow(row), dueAt: holdUntil, version: Number(row.version) + 1 };
    });
  });
}
