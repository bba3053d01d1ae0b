// The payment ledger on PostgreSQL: one row per entry, every change a compare-and-set on `version`,
// the reconciler's claims one statement over `FOR UPDATE SKIP LOCKED`. A finished entry gets an
// expiry, and every so many inserts one bounded batch of expired ones is deleted.
import { entryJson, fromRow } from '../entry-row.js';
import { isFinished } from '../finished.js';
import { clockSql, type PostgresQueryable, type PostgresTables } from './sql.js';
import type { Payment, PaymentStore } from '../types.js';

export type LedgerSettings = {
  tables: PostgresTables;
  /** How long a finished entry is kept, ms. */
  ttlMs: number;
  /** The injected clock's reading, or null for the database's clock. */
  clock: () => number | null;
};

const COLUMNS = 'reference, idempotency_key, version, due_at, payment';
const SWEEP_EVERY = 100;
const SWEEP_BATCH = 500;

/** The parameters every write takes: $1 reference, $2 state, $3 due_at, $4 ttl (null: not finished), $5 JSON, $6 clock. */
export function writeValues(payment: Payment, settings: LedgerSettings): unknown[] {
  const ttl = isFinished(payment) ? settings.ttlMs : null;
  return [payment.paymentReference, payment.state, payment.dueAt ?? null, ttl, entryJson(payment), settings.clock()];
}

/** Compare-and-set at $7 (the version read); the key column is left as inserted. */
export function updateSql(table: string): string {
  return `UPDATE ${table} SET version = version + 1, state = $2, due_at = $3,
    expires_at = ${clockSql(6)} + $4::double precision, payment = $5::jsonb
    WHERE reference = $1 AND version = $7`;
}

export function postgresPaymentStore(db: PostgresQueryable, settings: LedgerSettings): PaymentStore {
  const table = settings.tables.payments;
  let inserts = 0;

  async function sweepExpired(): Promise<void> {
    await db.query(
      `DELETE FROM ${table} WHERE reference IN (SELECT reference FROM ${table}
        WHERE expires_at <= ${clockSql(1)} LIMIT ${SWEEP_BATCH} FOR UPDATE SKIP LOCKED)`,
      [settings.clock()],
    );
  }

  async function selectOne(where: string, value: string): Promise<Payment | undefined> {
    const { rows } = await db.query(`SELECT ${COLUMNS} FROM ${table} WHERE ${where} = $1`, [value]);
    return rows[0] && fromRow(rows[0]);
  }

  return {
    get: (paymentReference) => selectOne('reference', paymentReference),
    findByIdempotencyKey: (key) => selectOne('idempotency_key', key),
    async insert(payment) {
      const { rowCount } = await db.query(
        `INSERT INTO ${table} (reference, state, due_at, expires_at, payment, idempotency_key, version)
         VALUES ($1, $2, $3, ${clockSql(6)} + $4::double precision, $5::jsonb, $7, 1) ON CONFLICT DO NOTHING`,
        [...writeValues(payment, settings), payment.idempotencyKey ?? null],
      );
      if (++inserts % SWEEP_EVERY === 0) await sweepExpired().catch(() => {});
      return rowCount === 1;
    },
    async update(payment) {
      const { rowCount } = await db.query(updateSql(table), [...writeValues(payment, settings), payment.version]);
      return rowCount === 1;
    },
    async markDue(paymentReference, at) {
      // A row locked by a fulfilment is being worked on: it is left alone rather than waited for.
      const { rowCount } = await db.query(
        `UPDATE ${table} SET due_at = $2, expires_at = NULL, version = version + 1
         WHERE reference = (SELECT reference FROM ${table} WHERE reference = $1 AND (due_at IS NULL OR due_at > $2) FOR UPDATE SKIP LOCKED)`,
        [paymentReference, at],
      );
      return rowCount === 1;
    },
    async claimDue(now, limit, holdMs) {
      const { rows } = await db.query(
        `WITH due AS (SELECT reference, due_at FROM ${table} WHERE due_at <= $1
           ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED)
         UPDATE ${table} AS entry SET due_at = $3, version = entry.version + 1 FROM due
         WHERE entry.reference = due.reference
         RETURNING entry.reference, entry.idempotency_key, entry.version, entry.due_at, entry.payment, due.due_at AS was_due`,
        [now, Math.max(0, Math.floor(limit)), now + holdMs],
      );
      // RETURNING keeps no order: soonest first, as they were due.
      rows.sort((a, b) => Number(a.was_due) - Number(b.was_due));
      return rows.map(fromRow);
    },
    // The database's clock (the injected one in tests), one for every instance: fulfilment leases go by it.
    async clock() {
      const { rows } = await db.query(`SELECT floor(${clockSql(1)}) AS now`, [settings.clock()]);
      return Number(rows[0]!.now);
    },
  };
}
