// The demo's reconciler: the package's `createReconciler` on the demo's gateway and ledger, with the
// routes' onPaid and onFailed, sweeping every PAY_RECONCILE_INTERVAL_MS (default 15 s); each sweep
// that did something, and each entry it moved, goes to the loop's log.
import { createReconciler, type Gateway, type PaymentStore } from '../../src/server/internal.js';
import type { LoopLog } from '../loop-log.js';
import type { Log } from './config.js';
import type { DemoHooks } from './routes.js';

type DemoReconcilerOptions = {
  gateway: Gateway;
  payments: PaymentStore;
  hooks: DemoHooks;
  loop: LoopLog;
  log: Log;
  intervalMs: number;
  /** The reconciler's clock (tests move it past an entry's first check); default `Date.now`. */
  now?: () => number;
};

/** Starts sweeping at once; the returned function stops it, after a sweep under way. */
export function startDemoReconciler(options: DemoReconcilerOptions): () => Promise<void> {
  const { loop, log } = options;
  const reconciler = createReconciler({
    gateway: options.gateway,
    payments: options.payments,
    ...options.hooks,
    ...(options.now ? { now: options.now } : {}),
    onEvent: (event) => {
      loop.reconciler(event);
      if (event.type === 'internal-error') log.warn(`pay-widget demo: reconciler ${JSON.stringify(event)}`);
      if (event.type === 'stale') log.warn(`pay-widget demo: ${event.paymentReference} is stale: look at it in the gateway's dashboard`);
    },
  });
  loop.reconcilerStarted(options.intervalMs);
  return reconciler.start(options.intervalMs);
}
