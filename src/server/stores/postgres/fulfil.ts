// `onPaid` inside the transaction that marks the entry fulfilled, so what `onPaid` writes through
// the transaction's client commits with the mark, exactly once. The entry's row lock keeps other
// callers off while the transaction runs, and a lease on the row (postgres-fulfil-lease.ts, by the
// database's clock) while an `onPaid` that outlived its time limit still runs after it. Fulfilment
// never holds more than `connections` of the pool at once, counting the onPaid calls that run on
// past their limit (the others are the sessions', and an `onPaid` that borrows from the same pool
// finds one), and a transaction whose `onPaid` outlived its time limit is closed, on the client and
// (should this process hang) by the server.
import { DEFAULT_LEASE_MS } from '../../fulfilment/lease.js';
import { OnPaidTimeoutError, runWithinLimit } from '../../fulfilment/time-limit.js';
import { fromRow } from '../entry-row.js';
import { owesFulfilment, postgresRowLeases } from './fulfil-lease.js';
import { updateSql, writeValues, type LedgerSettings } from './payments.js';
import { createSlots } from './slots.js';
import { inTransaction, type PostgresPoolClientLike, type PostgresPoolLike } from './sql.js';
import type { Payment, PaymentStore } from '../types.js';

type Fulfil = NonNullable<PaymentStore['fulfilInTransaction']>;
type Work = Parameters<Fulfil>[1];
type Limits = NonNullable<Parameters<Fulfil>[3]>;
type Ledger = { settings: LedgerSettings; now: () => number };

/** Thrown inside the transaction to end it: another caller holds the entry. */
class Busy extends Error {}

/** The time limit passed with `work` still running: `finished` settles when it ends. */
class Overrun extends OnPaidTimeoutError {
  constructor(
    timeoutMs: number,
    readonly finished: Promise<unknown>,
  ) {
    super(timeoutMs);
  }
}

/** PostgreSQL's `lock_not_available`, what `FOR UPDATE NOWAIT` fails with on a locked row. */
const LOCK_NOT_AVAILABLE = '55P03';
/**
 * The server's own limits (a statement, a transaction left idle) come this long after the client's:
 * a backstop for a process too busy or stuck to close the connection, never first.
 */
const SERVER_GRACE_MS = 1_000;

/** Names this process in its leases; each attempt adds a number. Made on first use. */
let processId: string | undefined;
let leases = 0;

/** `work` on the locked, owed entry, given up after `timeoutMs`; the entry marked fulfilled once it returned. */
async function fulfilLocked(
  client: PostgresPoolClientLike,
  payment: Payment,
  work: Work,
  timeoutMs: number | undefined,
  { settings, now }: Ledger,
): Promise<'fulfilled'> {
  if (timeoutMs === undefined) await work(structuredClone(payment), client, new AbortController().signal);
  else {
    const run = runWithinLimit(timeoutMs, (signal) => work(structuredClone(payment), client, signal));
    const outcome = await run.outcome;
    if (outcome.kind === 'threw') throw outcome.error;
    if (outcome.kind !== 'returned') throw new Overrun(timeoutMs, run.finished);
  }
  const fulfilled: Payment = { ...payment, fulfilledAt: now() };
  delete fulfilled.lease;
  delete fulfilled.dueAt;
  await client.query(updateSql(settings.tables.payments), [...writeValues(fulfilled, settings), payment.version]);
  return 'fulfilled';
}

/** The entry, its row locked for this transaction; `Busy` while another transaction holds it. */
async function lockedEntry(
  client: PostgresPoolClientLike,
  table: string,
  reference: string,
): Promise<Payment | undefined> {
  const { rows } = await client
    .query(
      `SELECT reference, idempotency_key, version, due_at, payment FROM ${table}
       WHERE reference = $1 FOR UPDATE NOWAIT`,
      [reference],
    )
    .catch((error: { code?: string }) => {
      throw error?.code === LOCK_NOT_AVAILABLE ? new Busy() : error;
    });
  return rows[0] && fromRow(rows[0]);
}

/** The row lock's transaction: still ours to fulfil, `work` run and the mark written; `begun` as `work` starts. */
function fulfilTransaction(
  pool: PostgresPoolLike,
  ledger: Ledger,
  run: { reference: string; owner: string; work: Work; timeoutMs: number | undefined; begun: () => void },
) {
  const { reference, owner, work, timeoutMs, begun } = run;
  return inTransaction(
    pool,
    async (client) => {
      if (timeoutMs !== undefined) await limitServerTime(client, timeoutMs);
      const payment = await lockedEntry(client, ledger.settings.tables.payments, reference);
      if (!owesFulfilment(payment)) return 'not-owed' as const;
      if (payment.lease?.owner !== owner) throw new Busy();
      begun();
      return fulfilLocked(client, payment, work, timeoutMs, ledger);
    },
    (error) => error instanceof OnPaidTimeoutError,
  );
}

/** The server ends a statement, or a transaction left idle, that outlives the limit (and its grace). */
async function limitServerTime(client: PostgresPoolClientLike, timeoutMs: number): Promise<void> {
  const limit = String(Math.ceil(timeoutMs) + SERVER_GRACE_MS);
  await client.query(
    `SELECT set_config('statement_timeout', $1, true),
            set_config('idle_in_transaction_session_timeout', $1, true)`,
    [limit],
  );
}

/**
 * The store's `fulfilInTransaction`. `now` stamps `fulfilledAt`; leases go by the ledger's clock.
 * `connections`: how many run at once.
 */
export function postgresFulfil(
  pool: PostgresPoolLike,
  payments: PaymentStore,
  settings: LedgerSettings,
  now: () => number,
  connections: number,
): Fulfil {
  const ledger = { settings, now };
  const takeSlot = createSlots(connections);
  const leasesOnRows = postgresRowLeases(pool, payments, settings);
  // A reference this process is fulfilling, or waiting to: a second caller here is told busy at once.
  const underway = new Set<string>();

  /**
   * One attempt under a lease of this process's. Settles with the outcome; `late` settles once
   * nothing of it runs any more (after the outcome, when `work` outlived its limit).
   */
  function attempt(reference: string, work: Work, retryAt: (attempts: number) => number, limits: Limits) {
    const leaseMs = limits.leaseMs ?? DEFAULT_LEASE_MS;
    const owner = `${(processId ??= crypto.randomUUID())}.${++leases}`;
    let late: Promise<unknown> = Promise.resolve();
    const outcome = (async () => {
      const taken = await leasesOnRows.take(reference, owner, (limits.timeoutMs ?? 0) + leaseMs);
      if (taken !== 'leased') return taken;
      let started = false;
      const begun = () => void (started = true);
      try {
        return await fulfilTransaction(pool, ledger, { reference, owner, work, timeoutMs: limits.timeoutMs, begun });
      } catch (error) {
        if (error instanceof Overrun) {
          // It may run on: the lease stays ours, renewed, until it ends.
          late = (await leasesOnRows.holdUntil(error.finished, reference, owner, leaseMs, retryAt)).released;
          throw new OnPaidTimeoutError(limits.timeoutMs!);
        }
        // The transaction is gone (rolled back, or its connection with it): the attempt counted, when it ran.
        await leasesOnRows.release(reference, owner, started ? retryAt : undefined).catch(() => {});
        if (error instanceof Busy) return 'busy';
        throw error;
      }
    })();
    return { outcome, late: () => late };
  }

  return async (reference, work, retryAt, limits = {}) => {
    if (underway.has(reference)) return 'busy';
    underway.add(reference);
    const giveBack = await takeSlot(limits.timeoutMs);
    if (!giveBack) {
      underway.delete(reference);
      return 'busy';
    }
    const run = attempt(reference, work, retryAt, limits);
    // The slot and the reference stay taken while anything of the attempt runs.
    void run.outcome
      .catch(() => {})
      .then(run.late)
      .finally(() => {
        giveBack();
        underway.delete(reference);
      });
    return run.outcome;
  };
}
