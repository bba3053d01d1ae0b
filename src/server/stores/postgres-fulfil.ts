// `onPaid` inside the transaction that marks the entry fulfilled: the entry's row lock is the
// lease, so what `onPaid` writes through the transaction's client commits with the mark, exactly once.
// Fulfilment never holds more than `connections` of the pool at once (the others are the sessions',
// and an `onPaid` that borrows from the same pool finds one), and a transaction whose `onPaid`
// outlived its time limit is closed, on the client and (should this process hang) by the server.
import { OnPaidTimeoutError, runWithinLimit } from '../fulfil-limit.js';
import { fromRow } from './entry-row.js';
import { updateSql, writeValues, type LedgerSettings } from './postgres-payments.js';
import { inTransaction, type PostgresPoolClientLike, type PostgresPoolLike } from './postgres-sql.js';
import type { Payment, PaymentStore } from './types.js';

type Fulfil = NonNullable<PaymentStore['fulfilInTransaction']>;
type Work = Parameters<Fulfil>[1];

/** Thrown inside the transaction to end it: another caller holds the entry. */
class Busy extends Error {}

/** PostgreSQL's `lock_not_available`, what `FOR UPDATE NOWAIT` fails with on a locked row. */
const LOCK_NOT_AVAILABLE = '55P03';
/**
 * The server's own limits (a statement, a transaction left idle) come this long after the client's:
 * a backstop for a process too busy or stuck to close the connection, never first.
 */
const SERVER_GRACE_MS = 1_000;

/** Owed `onPaid`: verified paid, not yet fulfilled. */
function owesFulfilment(payment: Payment | undefined): payment is Payment {
  return payment?.state === 'SUCCESS' && payment.fulfilledAt === undefined;
}

/** At most `size` callers at once; the others wait their turn, first come first served. */
function createSlots(size: number): <T>(work: () => Promise<T>) => Promise<T> {
  let free = size;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    }
  };
}

/**
 * The store's `fulfilInTransaction`. `now` stamps `fulfilledAt`, and a `lease` still running (a
 * caller fulfilling without a transaction) counts as busy. `connections`: how many run at once.
 */
export function postgresFulfil(pool: PostgresPoolLike, payments: PaymentStore, settings: LedgerSettings, now: () => number, connections: number): Fulfil {
  const table = settings.tables.payments;
  const inSlot = createSlots(connections);
  // A reference this process is fulfilling, or waiting to: a second caller here is told busy at once.
  const underway = new Set<string>();

  /** After `work` threw or timed out: one more attempt counted and the entry due again at `retryAt`, by compare-and-set. */
  async function countAttempt(reference: string, retryAt: (attempts: number) => number): Promise<void> {
    for (let tries = 0; tries < 3; tries++) {
      const current = await payments.get(reference);
      if (!owesFulfilment(current)) return;
      const attempts = (current.fulfilAttempts ?? 0) + 1;
      if (await payments.update({ ...current, fulfilAttempts: attempts, dueAt: retryAt(attempts) })) return;
    }
  }

  /** `work` on the locked, owed entry, given up after `timeoutMs`; the entry marked fulfilled once it returned. */
  async function fulfilLocked(client: PostgresPoolClientLike, payment: Payment, work: Work, timeoutMs: number | undefined): Promise<'fulfilled'> {
    if (timeoutMs === undefined) await work(structuredClone(payment), client, new AbortController().signal);
    else {
      const run = runWithinLimit(timeoutMs, (signal) => work(structuredClone(payment), client, signal));
      const outcome = await run.outcome;
      if (outcome.kind === 'threw') throw outcome.error;
      if (outcome.kind !== 'returned') throw new OnPaidTimeoutError(timeoutMs);
    }
    const fulfilled: Payment = { ...payment, fulfilledAt: now() };
    delete fulfilled.lease;
    delete fulfilled.dueAt;
    await client.query(updateSql(table), [...writeValues(fulfilled, settings), payment.version]);
    return 'fulfilled';
  }

  async function attempt(paymentReference: string, work: Work, retryAt: (attempts: number) => number, timeoutMs: number | undefined) {
    let started = false;
    try {
      return await inTransaction(
        pool,
        async (client) => {
          if (timeoutMs !== undefined) {
            // The server ends a statement, or a transaction left idle, that outlives the limit.
            const limit = String(Math.ceil(timeoutMs) + SERVER_GRACE_MS);
            await client.query("SELECT set_config('statement_timeout', $1, true), set_config('idle_in_transaction_session_timeout', $1, true)", [limit]);
          }
          const { rows } = await client
            .query(`SELECT reference, idempotency_key, version, due_at, payment FROM ${table} WHERE reference = $1 FOR UPDATE NOWAIT`, [paymentReference])
            .catch((error: { code?: string }) => {
              throw error?.code === LOCK_NOT_AVAILABLE ? new Busy() : error;
            });
          const payment = rows[0] && fromRow(rows[0]);
          if (!owesFulfilment(payment)) return 'not-owed' as const;
          if (payment.lease !== undefined && payment.lease.until > now()) throw new Busy();
          started = true;
          return fulfilLocked(client, payment, work, timeoutMs);
        },
        (error) => error instanceof OnPaidTimeoutError,
      );
    } catch (error) {
      if (error instanceof Busy) return 'busy';
      // The transaction is gone (rolled back, or its connection with it): count the attempt anew.
      if (started) await countAttempt(paymentReference, retryAt).catch(() => {});
      throw error;
    }
  }

  return async (paymentReference, work, retryAt, limits = {}) => {
    if (underway.has(paymentReference)) return 'busy';
    underway.add(paymentReference);
    try {
      return await inSlot(() => attempt(paymentReference, work, retryAt, limits.timeoutMs));
    } finally {
      underway.delete(paymentReference);
    }
  };
}
