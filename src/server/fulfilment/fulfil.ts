// Fulfilment: running the merchant's `onPaid` for a verified payment until it returns, never again
// afterwards, and never by two callers at once. Without a transactional store, a lease on the entry
// (a compare-and-set of `lease`, renewed while `onPaid` runs: fulfil-lease.ts) keeps other callers
// off; a lease that lapses (its process died) frees the entry for the next caller, and the entry's
// `dueAt` brings the reconciler back to it. A store with `fulfilInTransaction` (PostgreSQL) runs
// `onPaid` inside the transaction that records the fulfilment instead, under its own lease. Either
// way `onPaid` is waited for at most `onPaidTimeoutMs` (fulfil-limit.ts); one that runs on past it
// keeps its lease until it ends.
import { DEFAULT_LEASE_MS, holdLease, type HeldLease } from './lease.js';
import { DEFAULT_ON_PAID_TIMEOUT_MS, OnPaidTimeoutError, runWithinLimit } from './time-limit.js';
import { sleep } from '../http/deadline.js';
import { errorName } from '../http/emitter.js';
import { fulfilRetryAt } from '../reconciler/schedule.js';
import type { Payment, PaymentStore, QueuedWrites } from '../stores/types.js';

/**
 * What `onPaid` gets besides the payment. `db`: what `onPaid` writes through it commits with the
 * mark that it ran, exactly once, or (when it throws) not at all. With the PostgreSQL ledger, the
 * transaction's client (`pg`'s `PoolClient`); with the SQLite ledger, a `SqlitePaidDb`
 * (`pay-widget/server/sqlite`) whose writes are queued and committed with the mark after `onPaid`
 * returned; undefined with other stores. Name it as `Db` (`PaymentHook<SqlitePaidDb>`) to have it
 * typed. `signal`: aborted when `onPaidTimeoutMs` passed and the caller stopped waiting: pass it
 * to `fetch` and the like, and stop.
 */
export type PaidContext<Db = unknown> = { db?: Db; signal?: AbortSignal };

/**
 * The merchant's hook. `onPaid` runs until it returns without throwing (again with back-off after a
 * throw, or after its process died), so make it idempotent by `paymentReference`.
 */
export type PaymentHook<Db = unknown> = {
  // Written as a method so that a hook typed for one ledger's `db` is taken wherever a hook is.
  hook(payment: Payment, context: PaidContext<Db>): void | Promise<void>;
}['hook'];

/** What fulfilment reports: the hook's or the store's failure (the error's class name only). */
export type FulfilEvent =
  /** `onPaid` returned and the ledger recorded it: it never runs again for this reference. */
  | { type: 'fulfilled'; paymentReference: string; attempts: number }
  /**
   * `onPaid` did not return within `timeoutMs`: its signal was aborted and its PostgreSQL transaction
   * rolled back. Should it run on, its lease is kept (no other caller runs it meanwhile) until it
   * ends; then the payment is owed again after its back-off, unless it returned (without PostgreSQL).
   */
  | { type: 'onPaid-timeout'; paymentReference: string; timeoutMs: number }
  | { type: 'internal-error'; where: 'onPaid' | 'store'; paymentReference: string; detail: string };

export type FulfilContext = {
  payments: PaymentStore;
  onPaid: PaymentHook;
  emit: (event: FulfilEvent) => void;
  /**
   * How long a lease lives unrenewed (renewed every third of it while `onPaid` runs); default 60 s.
   * Reckoned by the ledger's clock when it has one (`payments.clock`: PostgreSQL, Redis), else by `now`.
   */
  leaseMs?: number;
  /** How long `onPaid` is waited for; default 30 s. */
  onPaidTimeoutMs?: number;
  now?: () => number;
};

/**
 * `fulfilled`: `onPaid` returned and the entry says so (here or by whoever raced this call);
 * `not-owed`: the entry is not SUCCESS, or already fulfilled; `busy`: another caller holds the lease,
 * or the ledger could not be written; `failed`: `onPaid` threw, and the entry is due again later.
 * `payment` is the entry as last known.
 */
export type FulfilResult = { kind: 'fulfilled' | 'not-owed' | 'busy' | 'failed'; payment: Payment };

export { DEFAULT_LEASE_MS } from './lease.js';
export { DEFAULT_ON_PAID_TIMEOUT_MS } from './time-limit.js';
/** A write that keeps losing to others is given up after this many tries; the entry stays owed. */
const MAX_WRITES = 8;

/**
 * Names this process in its leases; each call adds a number, so two calls in one process differ too.
 * Made on first use: a Cloudflare worker refuses to load a module that makes random values at its top level.
 */
let processId: string | undefined;
let leases = 0;

/**
 * Verified and not yet fulfilled. An entry settled before fulfilment was recorded (no `fulfilledAt`
 * and none of its bookkeeping: `dueAt`, `lease`, `fulfilAttempts`) had its `onPaid` run then, by the
 * code of that time, and owes nothing: upgrading never runs `onPaid` twice for old payments.
 */
export function owesFulfilment(payment: Payment): boolean {
  if (payment.state !== 'SUCCESS' || payment.fulfilledAt !== undefined) return false;
  return payment.dueAt !== undefined || payment.lease !== undefined || payment.fulfilAttempts !== undefined;
}

/** Owed, and no live lease on it: the next caller may take it. */
export function fulfilmentFree(payment: Payment, now: number): boolean {
  return owesFulfilment(payment) && (payment.lease === undefined || payment.lease.until <= now);
}

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

/** What ends a run: its lease, whose it is, and the writes onPaid queued (SQLite), committed with the mark. */
type Ending = { owner: string; lease: HeldLease; queued: QueuedWrites | undefined };

/** The ledger as the lease uses it: never throwing, and reckoning time by the ledger's clock when it has one. */
function leaseLedger(context: FulfilContext) {
  return {
    write: (next: Payment) => write(next, context),
    read: (reference: string) => read(reference, context),
    clock: () => leaseClock(context),
  };
}

/** The time leases are reckoned by: the ledger's own clock (one for every instance), else this instance's `now`. */
async function leaseClock(context: FulfilContext): Promise<number> {
  const { payments } = context;
  return payments.clock ? payments.clock() : (context.now ?? Date.now)();
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

type LeaseResult = { kind: 'leased'; payment: Payment } | FulfilResult;

/** Takes the lease by compare-and-set, re-reading after a lost race or a lost reply. */
async function takeLease(entry: Payment, owner: string, context: FulfilContext): Promise<LeaseResult> {
  let current = entry;
  for (let attempt = 1; attempt <= MAX_WRITES; attempt += 1) {
    const time = await leaseClock(context).catch((error: unknown) => {
      context.emit({
        type: 'internal-error',
        where: 'store',
        paymentReference: entry.paymentReference,
        detail: errorName(error),
      });
    });
    if (time === undefined) return { kind: 'busy', payment: current };
    if (!owesFulfilment(current)) return { kind: 'not-owed', payment: current };
    if (!fulfilmentFree(current, time)) return { kind: 'busy', payment: current };
    const until = time + (context.leaseMs ?? DEFAULT_LEASE_MS);
    // `dueAt: until`: should this process die in `onPaid`, the lapsed lease is swept by the reconciler.
    const next: Payment = {
      ...current,
      lease: { owner, until },
      fulfilAttempts: (current.fulfilAttempts ?? 0) + 1,
      dueAt: until,
    };
    if (await write(next, context)) return { kind: 'leased', payment: { ...next, version: current.version + 1 } };
    const reread = await read(entry.paymentReference, context);
    if (!reread) return { kind: 'busy', payment: current };
    if (reread.lease?.owner === owner) return { kind: 'leased', payment: reread }; // written, its reply lost
    current = reread;
  }
  return { kind: 'busy', payment: current };
}

/**
 * Records that `onPaid` returned: `fulfilledAt`, no lease, nothing due. Retried on a lost race even
 * when the lease lapsed meanwhile: `onPaid` did return, and it must not run again.
 */
async function markFulfilled(
  leased: Payment,
  { owner, lease, queued }: Ending,
  context: FulfilContext,
): Promise<FulfilResult> {
  const now = context.now ?? Date.now;
  let current = leased;
  // A store that is briefly away (a restart, a failover) is waited for while the lease holds:
  // giving up here would run `onPaid` again once the lease lapses.
  for (
    let attempt = 1, pause = 25;
    attempt <= MAX_WRITES || lease.holds();
    attempt += 1, pause = Math.min(pause * 2, 500)
  ) {
    const next: Payment = { ...current, fulfilledAt: now() };
    delete next.lease;
    delete next.dueAt;
    const written = queued ? await writeWith(queued, next, context) : await write(next, context);
    if (written === true) return fulfilled({ ...next, version: current.version + 1 }, context);
    if (written !== false) {
      // A write onPaid queued failed, and nothing was written: as if onPaid had thrown.
      context.emit({
        type: 'internal-error',
        where: 'onPaid',
        paymentReference: leased.paymentReference,
        detail: errorName(written.failed),
      });
      return { kind: 'failed', payment: await releaseLease(current, owner, context) };
    }
    const reread = await read(leased.paymentReference, context);
    if (reread?.fulfilledAt !== undefined) return fulfilled(reread, context);
    if (reread) current = reread;
    else await sleep(pause);
  }
  // The lease (ours, unless it lapsed) stays until it lapses: then `onPaid` runs once more.
  context.emit({
    type: 'internal-error',
    where: 'store',
    paymentReference: leased.paymentReference,
    detail: 'Conflict',
  });
  return { kind: 'busy', payment: current };
}

function fulfilled(payment: Payment, context: FulfilContext): FulfilResult {
  context.emit({
    type: 'fulfilled',
    paymentReference: payment.paymentReference,
    attempts: payment.fulfilAttempts ?? 1,
  });
  return { kind: 'fulfilled', payment };
}

/** After `onPaid` ended without returning: drops the lease and makes the entry due again after the back-off. */
async function releaseLease(leased: Payment, owner: string, context: FulfilContext): Promise<Payment> {
  const now = context.now ?? Date.now;
  let current = leased;
  for (let attempt = 1; attempt <= MAX_WRITES; attempt += 1) {
    const next: Payment = { ...current, dueAt: fulfilRetryAt(now(), current.fulfilAttempts ?? 1) };
    delete next.lease;
    if (await write(next, context)) return { ...next, version: current.version + 1 };
    const reread = await read(leased.paymentReference, context);
    // Someone else holds it now (our lease lapsed) or it is done: theirs to record.
    if (!reread || reread.lease?.owner !== owner || !owesFulfilment(reread)) return reread ?? current;
    current = reread;
  }
  return current; // the lease lapses by itself, and its `dueAt` brings the entry back
}

/** A compare-and-set; a store that threw counts as not written (the caller re-reads to tell). */
async function write(next: Payment, context: FulfilContext): Promise<boolean> {
  try {
    return await context.payments.update(next);
  } catch (error) {
    context.emit({
      type: 'internal-error',
      where: 'store',
      paymentReference: next.paymentReference,
      detail: errorName(error),
    });
    return false;
  }
}

/** `write`, with onPaid's queued writes in the same transaction. */
async function writeWith(
  queued: QueuedWrites,
  next: Payment,
  context: FulfilContext,
): Promise<boolean | { failed: unknown }> {
  try {
    return await queued.update(next);
  } catch (error) {
    context.emit({
      type: 'internal-error',
      where: 'store',
      paymentReference: next.paymentReference,
      detail: errorName(error),
    });
    return false;
  }
}

async function read(reference: string, context: FulfilContext): Promise<Payment | undefined> {
  try {
    return await context.payments.get(reference);
  } catch (error) {
    context.emit({ type: 'internal-error', where: 'store', paymentReference: reference, detail: errorName(error) });
    return undefined;
  }
}
