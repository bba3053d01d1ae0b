// The reconciler: the job that closes the loop when nobody else does (the webhook was lost, the tab
// closed, the process died inside `onPaid`). A sweep claims the ledger's due entries in bounded
// batches (`claimDue`, atomic, so many instances may sweep at once) and, for each: runs fulfilment
// for a verified payment still owed it; asks the gateway about a PENDING one, or a FAILED one on its
// sparse re-queries (at most `queriesPerSecond`), and settles it through the one transition; moves a
// still-pending one along its schedule (`requery.ts`), and after the last answered step marks it
// `stale` for a person, never FAILED. A query nobody answered is made again after a back-off.
import type { Gateway } from '../gateway/gateway.js';
import { sleep as realSleep } from '../http/deadline.js';
import { scrubbedEmitter } from '../http/emitter.js';
import { DEFAULT_LEASE_MS, fulfil, owesFulfilment, type FulfilResult } from '../fulfilment/fulfil.js';
import { assertStore } from '../options.js';
import { optionChecks } from '../../contract/option-checks.js';
import { nextStep, nothingOwed, retryUnanswered } from './requery.js';
import { sweepDue, type ReconcileCounts, type SweepEvent } from './sweep.js';
import { verifyAndSettle, type PaymentHook, type VerifyEvent } from '../settlement/settle.js';
import { PAYMENT_STORE_METHODS, type Payment, type PaymentStore } from '../stores/types.js';

export type { ReconcileCounts } from './sweep.js';

/**
 * What `onEvent` hears from the reconciler: the settlement's events, the sweep's own (sweep.ts) and
 * `stale`; references, codes and counts, never a token, key or customer detail.
 */
export type ReconcileEvent =
  | VerifyEvent
  | SweepEvent
  /**
   * The schedule ran out while the gateway still says pending: the entry stays PENDING, off the
   * sweep, for a person. Once per entry.
   */
  | { type: 'stale'; paymentReference: string; checks: number };

export type ReconcilerOptions = {
  /** The `createGateway(…)` object: the reconciler queries, never trusting anything else. */
  gateway: Pick<Gateway, 'query'>;
  /** The ledger the handlers write; it must have `claimDue`. */
  payments: PaymentStore;
  /** The webhook handler's `onPaid`, run (under the lease) for verified payments still owed it. */
  onPaid: PaymentHook;
  /** The webhook handler's `onFailed`: advisory, once per move to FAILED. */
  onFailed?: PaymentHook;
  /** Every query, settlement, `stale` entry and sweep, for logs. */
  onEvent?: (event: ReconcileEvent) => void | Promise<void>;
  /** As for the handlers: how long a lease on `onPaid` lives unrenewed; default 60 000 ms. */
  leaseMs?: number;
  /**
   * As for the handlers: how long `onPaid` is waited for before it is given up (`onPaid-timeout`;
   * its lease kept while it runs on) and owed again after its back-off; default 30 000 ms.
   */
  onPaidTimeoutMs?: number;
  /** Gateway queries per second, at most, across this reconciler's sweeps; default 5. */
  queriesPerSecond?: number;
  /** Entries claimed at a time; default 50. */
  batchSize?: number;
  /** A query unanswered after this long counts as unverified; default 10 000 ms. */
  queryTimeoutMs?: number;
  /** Clock, for tests. */
  now?: () => number;
  /** Waits `ms` between queries, for tests (with `now`); default a timer. */
  sleep?: (ms: number) => Promise<void>;
};

export type Reconciler = {
  /** One sweep: claims due entries until none is left (or `limit` were taken). Never throws. */
  run(options?: { limit?: number }): Promise<ReconcileCounts>;
  /** Sweeps now and then every `intervalMs`, never two at once; `stop()` ends it, after the running sweep. */
  start(intervalMs: number): () => Promise<void>;
};

const DEFAULT_QUERIES_PER_SECOND = 5;
const DEFAULT_BATCH_SIZE = 50;
const DEFAULT_QUERY_TIMEOUT_MS = 10_000;

/**
 * The ledger's due work, done: `createReconciler({ gateway, payments, onPaid }).start(60_000)` in
 * the server, or `run()` from a cron job.
 */
export function createReconciler(options: ReconcilerOptions): Reconciler {
  assertOptions(options);
  const { gateway, payments } = options;
  const now = options.now ?? Date.now;
  const queriesPerSecond = options.queriesPerSecond ?? DEFAULT_QUERIES_PER_SECOND;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  // A claim keeps other sweepers off for as long as this one may take over the batch.
  const holdMs = leaseMs + queryTimeoutMs + Math.ceil((batchSize / queriesPerSecond) * 1000);
  const emit = scrubbedEmitter(options.onEvent, gateway);
  const pace = createPacer(queriesPerSecond, now, options.sleep ?? ((ms) => realSleep(ms)));
  const settling = {
    payments,
    onPaid: options.onPaid,
    onFailed: options.onFailed,
    emit,
    now,
    leaseMs,
    queryTimeoutMs,
    onPaidTimeoutMs: options.onPaidTimeoutMs,
  };
  const ledger = { payments, now, emit };

  async function reconcile(entry: Payment, counts: ReconcileCounts): Promise<void> {
    if (owesFulfilment(entry)) return countFulfilment(await fulfil(entry, settling), counts);
    if (!owesQuery(entry)) return void (await nothingOwed(payments, entry));
    await pace();
    counts.checked += 1;
    const result = await verifyAndSettle(entry, gateway, settling);
    if (result.kind === 'settled') {
      const { state, fulfilledAt } = result.payment;
      counts[state === 'FAILED' ? 'failed' : 'paid'] += 1;
      // Paid but not fulfilled: `onPaid` threw (reported), and is due again after its back-off.
      if (state === 'SUCCESS') counts[fulfilledAt === undefined ? 'errors' : 'fulfilled'] += 1;
    } else if (result.kind === 'unverified' && result.reason !== 'not-found') {
      // An error of this sweep; the entry keeps its step, asked again after a back-off.
      counts.errors += 1;
      await retryUnanswered(ledger, entry);
    } else if (
      result.kind === 'unverified' ||
      result.kind === 'pending' ||
      (result.kind === 'already-settled' && result.payment.state === 'FAILED')
    ) {
      // Answered: still pending, still failed, or unknown to the gateway (a start that never reached it).
      const step = await nextStep(ledger, result.kind === 'unverified' ? entry : result.payment);
      if (step === 'pending' || step === 'stale') counts[step] += 1;
    }
  }

  const sweep = { payments, now, batchSize, holdMs, emit, reconcile };
  const run = async (runOptions: { limit?: number } = {}) => sweepDue(sweep, runOptions.limit);
  return { run, start: (intervalMs) => startSweeping(run, intervalMs) };
}

/** PENDING and started (or unknown), or FAILED with re-queries left: the gateway is asked. */
function owesQuery(entry: Payment): boolean {
  if (entry.state === 'FAILED') return true;
  return entry.state === 'PENDING' && entry.initiation !== 'refused';
}

function countFulfilment(result: FulfilResult, counts: ReconcileCounts): void {
  if (result.kind === 'fulfilled') counts.fulfilled += 1;
  else if (result.kind === 'failed') counts.errors += 1;
  else if (result.kind === 'busy') counts.pending += 1; // another caller runs it: still owed
}

/**
 * Spaces queries at least `1000 / perSecond` ms apart: each caller reserves the next slot, then
 * waits for it, so concurrent callers share one budget.
 */
function createPacer(perSecond: number, now: () => number, sleep: (ms: number) => Promise<void>): () => Promise<void> {
  const gapMs = 1000 / perSecond;
  let nextSlot = Number.NEGATIVE_INFINITY;
  return async () => {
    const time = now();
    const slot = Math.max(time, nextSlot);
    nextSlot = slot + gapMs;
    if (slot > time) await sleep(slot - time);
  };
}

/** Runs `run` now and `intervalMs` after each sweep ends; the returned `stop` waits for a running sweep. */
function startSweeping(run: () => Promise<unknown>, intervalMs: number): () => Promise<void> {
  optionChecks('createReconciler().start').positiveMs('intervalMs', intervalMs);
  let stopped = false;
  let running: Promise<unknown> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const sweep = () => {
    timer = undefined;
    running = run()
      .catch(() => {}) // run reports its own failures
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(sweep, intervalMs);
      });
  };
  sweep();
  return async () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    await running;
  };
}

function assertOptions(options: ReconcilerOptions): void {
  const check = optionChecks('createReconciler');
  if (!options) check.fail('options are required');
  if (typeof options.gateway?.query !== 'function') check.fail('gateway must have a query function (createGateway)');
  assertStore(options.payments, PAYMENT_STORE_METHODS, 'createReconciler: payments (a PaymentStore)');
  check.requiredFunction('onPaid', options.onPaid);
  for (const name of ['onFailed', 'onEvent', 'now', 'sleep'] as const) check.optionalFunction(name, options[name]);
  for (const name of ['leaseMs', 'onPaidTimeoutMs', 'queriesPerSecond', 'queryTimeoutMs'] as const)
    check.positiveMs(name, options[name]);
  const { batchSize } = options;
  if (batchSize !== undefined && !(Number.isInteger(batchSize) && batchSize > 0))
    check.fail('batchSize must be a positive whole number');
}
