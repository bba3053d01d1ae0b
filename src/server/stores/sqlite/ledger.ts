// What the SQLite ledger adds for a person (`pay-widget ledger`): each entry's history, in a table
// of its own (at most HISTORY_LIMIT rows a payment; a trigger deletes them with their entry), and
// the list and search over the entries.
import { HISTORY_LIMIT, type HistoryEvent } from '../../ledger/history.js';
import { listSql, SQLITE_DIALECT, type LedgerQuery } from '../../ledger/queries.js';
import { fromRow } from '../entry-row.js';
import type { SqliteConnection } from './connection.js';
import type { SqliteValue } from './database.js';
import type { Payment } from '../types.js';

const COLUMNS = 'reference, idempotency_key, version, due_at, payment';

export function sqliteLedgerViews(db: SqliteConnection) {
  const history = `"${db.tables.prefix}payment_history"`;
  const payments = db.tables.payments;
  return {
    appendHistory(paymentReference: string, event: HistoryEvent): Promise<void> {
      return db.write(() => {
        const added = db.change(
          `INSERT INTO ${history} (reference, at, event) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM ${payments} WHERE reference = ?)`,
          paymentReference,
          event.at,
          JSON.stringify(event),
          paymentReference,
        );
        if (added === 0) return;
        db.change(
          `DELETE FROM ${history} WHERE reference = ? AND id <= (SELECT id FROM ${history} WHERE reference = ? ORDER BY id DESC LIMIT 1 OFFSET ${HISTORY_LIMIT})`,
          paymentReference,
          paymentReference,
        );
      });
    },
    async history(paymentReference: string): Promise<HistoryEvent[]> {
      const rows = db.all(`SELECT event FROM ${history} WHERE reference = ? ORDER BY id`, paymentReference);
      return rows.map((row) => JSON.parse(String(row.event)) as HistoryEvent);
    },
    async list(query: LedgerQuery): Promise<Payment[]> {
      const { text, values } = listSql(payments, COLUMNS, query, SQLITE_DIALECT);
      return db.all(text, ...(values as SqliteValue[])).map(fromRow);
    },
  };
}
