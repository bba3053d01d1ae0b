// `onPaid` inside the transaction that marks the entry fulfilled: the entry's row lock is the
// lease, so what `onPaid` writes through the transaction's client commits with the mark, exactly once.
import { fromRow } from './entry-row.js';
import { updateSql, writeValues, type LedgerSettings } from './postgres-payments.js';
import { inTransaction, type PostgresPoolLike } from './postgres-sql.js';
import type { Payment, PaymentStore } from './types.js';

type Fulfil = NonNullable<PaymentStore['fulfilInTransaction']>;

/** Thrown inside the transaction to end it: another caller holds the entry. */
class Busy extends Error {}

/** PostgreSQL's `lock_not_available`, what `FOR UPDATE NOWAIT` fails with on a locked row. */
const LOCK_NOT_AVAILABLE = '55P03';

/** Owed `onPaid`: verified paid, not yet fulfilled. */
function owesFulfilment(payment: Payment | undefined): payment is Payment {
  return payment?.state === 'SUCCESS' && payment.fulfilledAt === undefined;
}

/**
 * The store's `fulfilInTransaction`. `now` stamps `fulfilledAt`, and a `lease` still running (a
 * caller fulfilling without a transaction) counts as busy.
 */
export function postgresFulfil(pool: PostgresPoolLike, payments: PaymentStore, settings: LedgerSettings, now: () => number): Fulfil {
  const table = settings.tables.payments;

  /** After `work` threw: one more attempt counted and the entry due again at `retryAt`, by compare-and-set. */
  async function countAttempt(reference: string, retryAt: (attempts: number) => number): Promise<void> {
    for (let tries = 0; tries < 3; tries++) {
      const current = await payments.get(reference);
      if (!owesFulfilment(current)) return;
      const attempts = (current.fulfilAttempts ?? 0) + 1;
      if (await payments.update({ ...current, fulfilAttempts: attempts, dueAt: retryAt(attempts) })) return;
    }
  }

  return async (paymentReference, work, retryAt) => {
    let started = false;
    try {
      return await inTransaction(pool, async (client) => {
        const { rows } = await client
          .query(`SELECT reference, idempotency_key, version, due_at, payment FROM ${table} WHERE reference = $1 FOR UPDATE NOWAIT`, [paymentReference])
          .catch((error: { code?: string }) => {
            throw error?.code === LOCK_NOT_AVAILABLE ? new Busy() : error;
          });
        const payment = rows[0] && fromRow(rows[0]);
        if (!owesFulfilment(payment)) return 'not-owed' as const;
        if (payment.lease !== undefined && payment.lease.until > now()) throw new Busy();
        started = true;
        await work(structuredClone(payment), client);
        const fulfilled: Payment = { ...payment, fulfilledAt: now() };
        delete fulfilled.lease;
        delete fulfilled.dueAt;
        await client.query(updateSql(table), [...writeValues(fulfilled, settings), payment.version]);
        return 'fulfilled' as const;
      });
    } catch (error) {
      if (error instanceof Busy) return 'busy';
      // The transaction is gone (rolled back, or its connection with it): count the attempt anew.
      if (started) await countAttempt(paymentReference, retryAt).catch(() => {});
      throw error;
    }
  };
}
