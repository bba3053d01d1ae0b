// A ledger entry as the SQL stores keep it (PostgreSQL, SQLite): one row whose JSON holds the entry
// less the fields that live in columns beside it, for the compare-and-set, the reconciler's index
// and the lookup by key: `version`, `dueAt`, `idempotencyKey`.
import type { Payment } from './types.js';

type Row = Record<string, unknown>;

/** A row (`version`, `due_at`, `idempotency_key`, `payment`) back into the entry. */
export function fromRow(row: Row): Payment {
  const json = typeof row.payment === 'string' ? JSON.parse(row.payment) : structuredClone(row.payment);
  const payment = json as Payment;
  payment.version = Number(row.version);
  if (row.due_at !== null && row.due_at !== undefined) payment.dueAt = Number(row.due_at);
  if (typeof row.idempotency_key === 'string') payment.idempotencyKey = row.idempotency_key;
  return payment;
}

/** The JSON column: the entry without the fields kept in columns of their own. */
export function entryJson(payment: Payment): string {
  const { version: _version, dueAt: _dueAt, idempotencyKey: _key, ...rest } = payment;
  return JSON.stringify(rest);
}
