// The lease fulfilment on PostgreSQL writes on the entry's row (`payment.lease`), by the database's
// clock: taken before the transaction that runs `onPaid`, for the transaction's time limit and one
// lease more, so that it still holds should `onPaid` run past the limit (its transaction closed and
// its row lock gone); then renewed (fulfil-lease.ts) until `onPaid` ends, and given up.
import { holdLease } from '../../fulfilment/lease.js';
import { fromRow } from '../entry-row.js';
import { clockSql, type PostgresQueryable } from './sql.js';
import type { LedgerSettings } from './payments.js';
import type { Payment, PaymentStore } from '../types.js';

/** Owed `onPaid`: verified paid, not yet fulfilled. */
export function owesFulfilment(payment: Payment | undefined): payment is Payment {
  return payment?.state === 'SUCCESS' && payment.fulfilledAt === undefined;
}

/** A compare-and-set that keeps losing to other writers is given up after this many tries. */
const MAX_WRITES = 4;

export type RowLeases = {
  /** Takes the lease for `ms` when the entry is owed and no live lease is on it, in one statement; a row locked now counts as busy. */
  take(reference: string, owner: string, ms: number): Promise<'leased' | 'not-owed' | 'busy'>;
  /**
   * `owner`'s lease dropped; with `retryAt` (`work` ran and did not commit), one more attempt
   * counted and the entry due again at `retryAt`. Leaves an entry alone that is no longer ours.
   */
  release(reference: string, owner: string, retryAt: ((attempts: number) => number) | undefined): Promise<void>;
  /**
   * `work` outlived its limit and may still run: settles once the attempt is counted and the lease
   * kept; `released` settles once `finished` did and the lease (renewed every third of `leaseMs`
   * meanwhile) was given up, the entry due again at `retryAt`.
   */
  holdUntil(
    finished: Promise<unknown>,
    reference: string,
    owner: string,
    leaseMs: number,
    retryAt: (attempts: number) => number,
  ): Promise<{ released: Promise<void> }>;
};

export function postgresRowLeases(db: PostgresQueryable, payments: PaymentStore, settings: LedgerSettings): RowLeases {
  const table = settings.tables.payments;
  const clock = () => payments.clock!();
  const write = async (next: Payment) => (await payments.update(next)) === true;
  const ledger = {
    write: (next: Payment) => write(next).catch(() => false),
    read: async (reference: string) => (await payments.get(reference)) ?? undefined,
    clock,
  };

  /** `change` applied to the entry, by compare-and-set, while it is owed and not another's; the entry as written. */
  async function rewrite(
    reference: string,
    owner: string,
    change: (entry: Payment) => Payment | Promise<Payment>,
  ): Promise<Payment | undefined> {
    for (let attempt = 1; attempt <= MAX_WRITES; attempt += 1) {
      const current = await payments.get(reference);
      if (!owesFulfilment(current) || (current.lease !== undefined && current.lease.owner !== owner)) return undefined;
      const next = await change(current);
      if (await write(next)) return { ...next, version: current.version + 1 };
    }
    return undefined;
  }

  return {
    async take(reference, owner, ms) {
      const { rows } = await db.query(
        `WITH entry AS (SELECT reference, floor(${clockSql(4)}) AS now FROM ${table}
           WHERE reference = $1 AND state = 'SUCCESS' AND NOT payment ? 'fulfilledAt' FOR UPDATE SKIP LOCKED)
         UPDATE ${table} AS row SET version = row.version + 1, due_at = entry.now + $3::double precision,
           payment = jsonb_set(row.payment, '{lease}', jsonb_build_object('owner', $2::text, 'until', entry.now + $3::double precision))
         FROM entry WHERE row.reference = entry.reference
           AND (NOT row.payment ? 'lease' OR (row.payment #>> '{lease,until}')::double precision <= entry.now)
         RETURNING row.reference, row.version, row.due_at, row.payment`,
        [reference, owner, Math.ceil(ms), settings.clock()],
      );
      if (rows[0] && fromRow(rows[0]).lease?.owner === owner) return 'leased';
      return owesFulfilment(await payments.get(reference)) ? 'busy' : 'not-owed';
    },
    async release(reference, owner, retryAt) {
      await rewrite(reference, owner, (current) => {
        const next: Payment = { ...current };
        delete next.lease;
        if (retryAt) {
          next.fulfilAttempts = (current.fulfilAttempts ?? 0) + 1;
          next.dueAt = retryAt(next.fulfilAttempts);
        }
        return next;
      });
    },
    async holdUntil(finished, reference, owner, leaseMs, retryAt) {
      const held = await rewrite(reference, owner, async (current) => {
        const until = (await clock()) + leaseMs;
        return { ...current, lease: { owner, until }, dueAt: until, fulfilAttempts: (current.fulfilAttempts ?? 0) + 1 };
      }).catch(() => undefined);
      const lease = held && holdLease(held, owner, ledger, leaseMs);
      const released = (async () => {
        await finished.catch(() => {});
        await lease?.stop();
        // Counted when the lease was kept; the entry is due again after its back-off from now.
        await rewrite(reference, owner, (current) => {
          const next: Payment = { ...current, dueAt: retryAt(current.fulfilAttempts ?? 1) };
          delete next.lease;
          return next;
        }).catch(() => undefined);
      })();
      return { released };
    },
  };
}
