// The payment ledger on SQLite: one row per entry, every change a compare-and-set on `version` in one
// statement, the reconciler's claims one BEGIN IMMEDIATE transaction (no other process writes in
// between, so each due entry goes to one sweeper). A finished entry gets an expiry, and every so
// many inserts one bounded batch of expired ones is deleted.
import { entryJson, fromRow } from './entry-row.js';
import { isFinished } from './finished.js';
import type { SqliteConnection, SqliteValue } from './sqlite-database.js';
import type { Payment, PaymentStore } from './types.js';

export type SqliteLedgerSettings = {
  /** How long a finished entry is kept, ms. */
  ttlMs: number;
  now: () => number;
};

const COLUMNS = 'reference, idempotency_key, version, due_at, payment';
const SWEEP_EVERY = 100;
const SWEEP_BATCH = 500;

export function sqlitePaymentStore(db: SqliteConnection, settings: SqliteLedgerSettings): PaymentStore {
  const table = db.tables.payments;
  let inserts = 0;

  /** state, due_at, expires_at (null while something is owed), payment JSON. */
  function columns(payment: Payment): SqliteValue[] {
    const expiresAt = isFinished(payment) ? settings.now() + settings.ttlMs : null;
    return [payment.state, payment.dueAt ?? null, expiresAt, entryJson(payment)];
  }

  function sweepExpired(): void {
    db.run(
      `DELETE FROM ${table} WHERE reference IN (SELECT reference FROM ${table} WHERE expires_at <= ? LIMIT ${SWEEP_BATCH})`,
      settings.now(),
    );
  }

  function selectOne(where: string, value: string): Payment | undefined {
    const row = db.get(`SELECT ${COLUMNS} FROM ${table} WHERE ${where} = ?`, value);
    return row && fromRow(row);
  }

  function claimDue(now: number, limit: number, holdMs: number): Payment[] {
    return db.immediate(() => {
      const rows = db.all(`SELECT ${COLUMNS} FROM ${table} WHERE due_at <= ? ORDER BY due_at LIMIT ?`, now, Math.max(0, Math.floor(limit)));
      const holdUntil = now + holdMs;
      return rows.map((row) => {
        db.run(`UPDATE ${table} SET due_at = ?, version = version + 1 WHERE reference = ?`, holdUntil, String(row.reference));
        return { ...fromRow(row), dueAt: holdUntil, version: Number(row.version) + 1 };
      });
    });
  }

  return {
    get: async (paymentReference) => selectOne('reference', paymentReference),
    findByIdempotencyKey: async (key) => selectOne('idempotency_key', key),
    async insert(payment) {
      const inserted = db.run(
        `INSERT INTO ${table} (reference, idempotency_key, version, state, due_at, expires_at, payment)
         VALUES (?, ?, 1, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        payment.paymentReference,
        payment.idempotencyKey ?? null,
        ...columns(payment),
      );
      if (++inserts % SWEEP_EVERY === 0) {
        try {
          sweepExpired();
        } catch {
          // The next sweep takes them: an expired entry left a while longer harms nothing.
        }
      }
      return inserted === 1;
    },
    async update(payment) {
      // The key column stays as inserted.
      const changed = db.run(
        `UPDATE ${table} SET version = version + 1, state = ?, due_at = ?, expires_at = ?, payment = ? WHERE reference = ? AND version = ?`,
        ...columns(payment),
        payment.paymentReference,
        payment.version,
      );
      return changed === 1;
    },
    claimDue: async (now, limit, holdMs) => claimDue(now, limit, holdMs),
  };
}
