// Fulfilment: running the merchant's `onPaid` for a verified payment until it returns, never again
// afterwards, and never by two callers at once. Without a transactional store, a lease on the entry
// (taken, renewed while `onPaid` runs, and released, each by compare-and-set: lease-writes.ts,
// lease.ts) keeps other callers off; a lease that lapses (its process died) frees the entry for the next caller, and the entry's
// `dueAt` brings the reconciler back to it. A store with `fulfilInTransaction` (PostgreSQL) runs
// `onPaid` inside the transaction that records the fulfilment instead, under its own lease. Either
// way `onPaid` is waited for at most `onPaidTimeoutMs` (time-limit.ts); one that runs on past it
// keeps its lease until it ends.
import type { FulfilContext, FulfilResult, PaidContext } from './context.js';
import { DEFAULT_LEASE_MS, holdLease } from './lease.js';
import { fulfilled, leaseLedger, markFulfilled, read, releaseLease, takeLease, type Ending } from './lease-writes.js';
import { DEFAULT_ON_PAID_TIMEOUT_MS, OnPaidTimeoutError, runWithinLimit } from './time-limit.js';
import { errorName } from '../http/emitter.js';
import { owesFulfilment, type Payment } from '../ledger/entry.js';
import { fulfilRetryAt } from '../ledger/schedule.js';

export type { FulfilContext, FulfilEvent, FulfilResult, PaidContext, PaymentHook } from './context.js';

export { DEFAULT_LEASE_MS } from './lease.js';
export { fulfilmentFree, owesFulfilment } from '../ledger/entry.js';
export { DEFAULT_ON_PAID_TIMEOUT_MS } from './time-limit.js';

/**
 * Names this process in its leases; each call adds a number, so two calls in one process differ too.
 * Made on first use: a Cloudflare worker refuses to load a module that makes random values at its top level.
 */
let processId: string | undefined;
let leases = 0;

/** Runs `onPaid` for `entry` when it is owed and free; never throws. */
export async function fulfil(entry: Payment, context: FulfilContext): Promise<FulfilResult> {
  if (!owesFulfilment(entry)) return { kind: 'not-owed', payment: entry };
  if (context.payments.fulfilInTransaction) return fulfilInTransaction(entry, context);
  const owner = `${(processId ??= crypto.randomUUID())}.${++leases}`;
  const taken = await takeLease(entry, owner, context);
  if (taken.kind !== 'leased') return taken;
  const timeoutMs = timeLimit(context);
  const lease = holdLease(taken.payment, owner, leaseLedger(context), context.leaseMs ?? DEFAULT_LEASE_MS);
  // SQLite: onPaid's writes through `db` are queued, and committed with the mark or never (sqlite-fulfil.ts).
  const queued = context.payments.queueWrites?.();
  const hookContext = (signal: AbortSignal): PaidContext => (queued ? { db: queued.db, signal } : { signal });
  const run = runWithinLimit(
    timeoutMs,
    (signal) => context.onPaid(structuredClone(taken.payment), hookContext(signal)),
    lease.lost,
  );
  const ending = { owner, lease, queued };
  const outcome = await run.outcome;
  const reference = entry.paymentReference;
  if (outcome.kind === 'timeout') {
    context.emit({ type: 'onPaid-timeout', paymentReference: reference, timeoutMs });
    // JavaScript cannot stop it: while it runs the lease stays ours, renewed, and no one else runs it.
    void endLate(run.finished, ending, context);
    return { kind: 'failed', payment: lease.latest() };
  }
  const current = await lease.stop();
  if (outcome.kind === 'returned') return markFulfilled(current, ending, context);
  if (outcome.kind === 'threw') {
    context.emit({
      type: 'internal-error',
      where: 'onPaid',
      paymentReference: reference,
      detail: errorName(outcome.error),
    });
    return { kind: 'failed', payment: await releaseLease(current, owner, context) };
  }
  // The lease lapsed unrenewed (the ledger was away) or another caller holds it now.
  context.emit({ type: 'internal-error', where: 'store', paymentReference: reference, detail: 'LeaseLost' });
  // Should the abandoned call still return, it did its work: recorded, it is not run again.
  void run.finished.then((ended) => (ended === 'returned' ? markFulfilled(current, ending, context) : undefined));
  return { kind: 'busy', payment: current };
}

/**
 * The end of a call that outlived its time limit, under the lease kept for it: recorded when it
 * returned, owed again after its back-off (the lease dropped) when it threw.
 */
async function endLate(finished: Promise<'returned' | 'threw'>, ending: Ending, context: FulfilContext): Promise<void> {
  const { lease, owner } = ending;
  const reference = lease.latest().paymentReference;
  let lost = false;
  void lease.lost.then(() => {
    lost = true;
    context.emit({ type: 'internal-error', where: 'store', paymentReference: reference, detail: 'LeaseLost' });
  });
  const ended = await finished;
  const current = await lease.stop();
  if (ended === 'returned') await markFulfilled(current, ending, context);
  else if (!lost) await releaseLease(current, owner, context);
}

function timeLimit(context: FulfilContext): number {
  return context.onPaidTimeoutMs ?? DEFAULT_ON_PAID_TIMEOUT_MS;
}

async function fulfilInTransaction(entry: Payment, context: FulfilContext): Promise<FulfilResult> {
  const now = context.now ?? Date.now;
  const timeoutMs = timeLimit(context);
  let hookThrew = false;
  let outcome: 'fulfilled' | 'not-owed' | 'busy' | 'failed';
  try {
    outcome = await context.payments.fulfilInTransaction!(
      entry.paymentReference,
      async (payment, db, signal) => {
        try {
          await context.onPaid(structuredClone(payment), { db, signal });
        } catch (error) {
          hookThrew = true;
          throw error;
        }
      },
      (attempts) => fulfilRetryAt(now(), attempts),
      { timeoutMs, leaseMs: context.leaseMs ?? DEFAULT_LEASE_MS },
    );
  } catch (error) {
    const reference = entry.paymentReference;
    if (error instanceof OnPaidTimeoutError)
      context.emit({ type: 'onPaid-timeout', paymentReference: reference, timeoutMs });
    else
      context.emit({
        type: 'internal-error',
        where: hookThrew ? 'onPaid' : 'store',
        paymentReference: reference,
        detail: errorName(error),
      });
    outcome = hookThrew || error instanceof OnPaidTimeoutError ? 'failed' : 'busy';
  }
  const payment = (await read(entry.paymentReference, context)) ?? entry;
  return outcome === 'fulfilled' ? fulfilled(payment, context) : { kind: outcome, payment };
}
