// What the PostgreSQL ledger adds for a person (`pay-widget ledger`): each entry's history, in a
// table of its own (at most HISTORY_LIMIT rows a payment, deleted with their entry by a trigger),
// and the list and search over the entries.
import { HISTORY_LIMIT, type HistoryEvent } from '../../ledger/history.js';
import { listSql, POSTGRES_DIALECT, type LedgerQuery } from '../../ledger/queries.js';
import { fromRow } from '../entry-row.js';
import type { PostgresQueryable, PostgresTables } from './sql.js';
import type { Payment } from '../types.js';

const COLUMNS = 'reference, idempotency_key, version, due_at, payment';

export function postgresLedgerViews(db: PostgresQueryable, tables: PostgresTables) {
  const history = tables.payments.replace(/payments"$/, 'payment_history"');
  return {
    async appendHistory(paymentReference: string, event: HistoryEvent): Promise<void> {
      // One statement: the row added only while its entry exists, and the oldest beyond the limit dropped.
      await db.query(
        `WITH added AS (
           INSERT INTO ${history} (reference, at, event)
           SELECT $1, $2, $3::jsonb WHERE EXISTS (SELECT 1 FROM ${tables.payments} WHERE reference = $1)
           RETURNING id)
         DELETE FROM ${history} WHERE reference = $1 AND EXISTS (SELECT 1 FROM added) AND id <= (
           SELECT id FROM ${history} WHERE reference = $1 ORDER BY id DESC OFFSET ${HISTORY_LIMIT - 1} LIMIT 1)`,
        [paymentReference, event.at, JSON.stringify(event)],
      );
    },
    async history(paymentReference: string): Promise<HistoryEvent[]> {
      const { rows } = await db.query(`SELECT event FROM ${history} WHERE reference = $1 ORDER BY id`, [
        paymentReference,
      ]);
      return rows.map((row) => (typeof row.event === 'string' ? JSON.parse(row.event) : row.event) as HistoryEvent);
    },
    async list(query: LedgerQuery): Promise<Payment[]> {
      const { text, values } = listSql(tables.payments, COLUMNS, query, POSTGRES_DIALECT);
      const { rows } = await db.query(text, values);
      return rows.map(fromRow);
    },
  };
}
