// The ledger writes around one run of `onPaid` without a transactional store: the lease taken, the
// entry marked fulfilled (with the writes `onPaid` queued, on SQLite) or released for the next try,
// each a move of ledger/moves.ts written by ledger/write.ts; and the ledger as the lease's
// heartbeat (lease.ts) uses it.
import type { FulfilContext, FulfilResult } from './context.js';
import { DEFAULT_LEASE_MS, type HeldLease, type LeaseLedger } from './lease.js';
import { errorName } from '../http/emitter.js';
import { owesFulfilment, type Payment } from '../ledger/entry.js';
import { moveEntry } from '../ledger/moves.js';
import { writeMove } from '../ledger/write.js';
import type { QueuedWrites } from '../stores/types.js';

/** What ends a run: its lease, whose it is, and the writes onPaid queued (SQLite), committed with the mark. */
export type Ending = { owner: string; lease: HeldLease; queued: QueuedWrites | undefined };

/** The ledger as the lease uses it: never throwing, and reckoning time by the ledger's clock when it has one. */
export function leaseLedger(context: FulfilContext): LeaseLedger {
  return {
    write: async (next: Payment) => {
      try {
        return (await context.payments.update(next)) === true;
      } catch (error) {
        return storeError(next, context)(error) ?? false;
      }
    },
    read: (reference: string) => read(reference, context),
    clock: () => leaseClock(context),
  };
}

/** The time leases are reckoned by: the ledger's own clock (one for every instance), else this instance's `now`. */
export async function leaseClock(context: FulfilContext): Promise<number> {
  const { payments } = context;
  return payments.clock ? payments.clock() : (context.now ?? Date.now)();
}

export type LeaseResult = { kind: 'leased'; payment: Payment } | FulfilResult;

/** Takes the lease by compare-and-set, re-reading after a lost race or a lost reply. */
export async function takeLease(entry: Payment, owner: string, context: FulfilContext): Promise<LeaseResult> {
  const time = await leaseClock(context).catch(storeError(entry, context));
  if (time === undefined) return { kind: 'busy', payment: entry };
  const until = time + (context.leaseMs ?? DEFAULT_LEASE_MS);
  const taken = await writeMove(
    context.payments,
    entry,
    { type: 'lease-taken', at: time, owner, until },
    { report: storeError(entry, context), landed: (reread) => reread.lease?.owner === owner },
  );
  if (taken.kind === 'written') return { kind: 'leased', payment: taken.after };
  const current = taken.kind === 'missing' || taken.kind === 'unreadable' ? entry : taken.entry;
  return { kind: owesFulfilment(current) ? 'busy' : 'not-owed', payment: current };
}

/**
 * Records that `onPaid` returned (its queued writes with it). A store that is briefly away (a
 * restart, a failover) is waited for while the lease holds: giving up here would run `onPaid`
 * again once the lease lapses.
 */
export async function markFulfilled(
  leased: Payment,
  { owner, lease, queued }: Ending,
  context: FulfilContext,
): Promise<FulfilResult> {
  const now = context.now ?? Date.now;
  const ledger = queued
    ? { get: (reference: string) => context.payments.get(reference), update: (next: Payment) => queued.update(next) }
    : context.payments;
  const marked = await writeMove(ledger, leased, (current) => moveEntry(current, { type: 'fulfilled', at: now() }), {
    report: storeError(leased, context),
    landed: (reread) => reread.fulfilledAt !== undefined,
    keepTrying: () => lease.holds(),
    waitForStore: true,
  });
  if (marked.kind === 'written') return fulfilled(marked.after, context);
  if (marked.kind === 'not-applicable') return fulfilled(marked.entry, context);
  if (marked.kind === 'refused') {
    // A write onPaid queued failed, and nothing was written: as if onPaid had thrown.
    context.emit({
      type: 'internal-error',
      where: 'onPaid',
      paymentReference: leased.paymentReference,
      detail: errorName(marked.error),
    });
    return { kind: 'failed', payment: await releaseLease(marked.entry, owner, context) };
  }
  // The lease (ours, unless it lapsed) stays until it lapses: then `onPaid` runs once more.
  context.emit({
    type: 'internal-error',
    where: 'store',
    paymentReference: leased.paymentReference,
    detail: 'Conflict',
  });
  return { kind: 'busy', payment: marked.kind === 'gave-up' ? marked.entry : leased };
}

export function fulfilled(payment: Payment, context: FulfilContext): FulfilResult {
  context.emit({
    type: 'fulfilled',
    paymentReference: payment.paymentReference,
    attempts: payment.fulfilAttempts ?? 1,
  });
  return { kind: 'fulfilled', payment };
}

/** After `onPaid` ended without returning: drops the lease and makes the entry due again after the back-off. */
export async function releaseLease(leased: Payment, owner: string, context: FulfilContext): Promise<Payment> {
  const now = context.now ?? Date.now;
  const released = await writeMove(
    context.payments,
    leased,
    (current) => moveEntry(current, { type: 'lease-released', at: now(), owner }),
    { report: storeError(leased, context) },
  );
  // Not ours to release any more (another caller's, or done), or given up: its lease lapses by
  // itself, and its `dueAt` brings the entry back.
  if (released.kind === 'written') return released.after;
  return released.kind === 'not-applicable' || released.kind === 'gave-up' ? released.entry : leased;
}

/** Reports a store that threw, the error's class name only. */
function storeError(entry: Pick<Payment, 'paymentReference'>, context: FulfilContext) {
  return (error: unknown): undefined => {
    context.emit({
      type: 'internal-error',
      where: 'store',
      paymentReference: entry.paymentReference,
      detail: errorName(error),
    });
    return undefined;
  };
}

export async function read(reference: string, context: FulfilContext): Promise<Payment | undefined> {
  try {
    return await context.payments.get(reference);
  } catch (error) {
    context.emit({ type: 'internal-error', where: 'store', paymentReference: reference, detail: errorName(error) });
    return undefined;
  }
}
