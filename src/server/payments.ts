// createPayments: the server half as one object, mounted once. Its handler routes by the last
// path segment under wherever it is mounted (…/session, …/status, …/webhook) to the three
// endpoints, built from one set of options; `sweep()` is one reconciler pass and `close()` stops
// the reconciler's timer.
import type { PaymentHook } from './fulfilment/fulfil.js';
import { createEmitter, errorName } from './http/emitter.js';
import { createHistoryRecorder, historyListener } from './ledger/history.js';
import {
  checkPaymentsOptions,
  DEFAULT_SWEEP_EVERY_MS,
  withDefaultUrls,
  type PaymentsEvent,
  type PaymentsEventSource,
  type PaymentsOptions,
} from './payments-options.js';
import { routeByLastSegment, type Endpoints } from './payments-router.js';
import { createReconciler, type ReconcileCounts } from './reconciler/reconciler.js';
import { createSessionHandler } from './session/handler.js';
import { createStatusHandler } from './status/handler.js';
import type { StatusSecret } from './status/tokens.js';
import { createWebhookHandler } from './webhook/handler.js';

export type Payments = {
  /**
   * The endpoints, for any Fetch-API server: `POST …/session`, `GET …/status`, `POST …/webhook`;
   * anything else is 404. `env` is what the server adapter passes beside the request (the client's
   * address is read from it).
   */
  handler(request: Request, env?: unknown): Promise<Response>;
  /** One reconciler pass over what is due, for a cron where no timer runs (a worker's scheduled event). */
  sweep(): Promise<ReconcileCounts>;
  /** Stops the reconciler's timer, after a sweep still running. */
  close(): Promise<void>;
};

/** Where the widget polls, relative to the session endpoint it posted to. */
const STATUS_PATH = 'status';
const SECRET_NAME = 'status-token';

/**
 * The payments handler: `createPayments({ gateway, stores, order, onPaid, publicUrl })`, mounted at
 * one path (`app.all('/pay/*splat', toNodeHandler(payments))`, or `payments.handler` wherever a
 * Fetch-API `Request` arrives), with `<pay-widget session-url="/pay/session">` on the page.
 */
export function createPayments(options: PaymentsOptions): Payments {
  checkPaymentsOptions(options);
  const { gateway, stores, onFailed, now } = options;
  const { onEvent } = options;
  // Every decision about an entry also goes into its history (ledger/history.ts), as scrubbed as `onEvent` hears it.
  const record = createHistoryRecorder(stores.payments);
  const intoHistory = historyListener(record, now);
  const emitFrom = (endpoint: PaymentsEventSource['endpoint']) =>
    createEmitter<PaymentsEvent>((event) => {
      intoHistory(event);
      return onEvent?.(event, { endpoint });
    });
  const onPaid: PaymentHook = (payment, context) => {
    record(payment.paymentReference, { at: (now ?? Date.now)(), what: 'onPaid-started' });
    return options.onPaid(payment, context);
  };
  const fulfilment = {
    onPaid,
    onFailed,
    leaseMs: options.fulfilment?.leaseMs,
    onPaidTimeoutMs: options.fulfilment?.onPaidTimeoutMs,
    now,
  };
  const shared = { gateway, payments: stores.payments, ...fulfilment };
  const reconciler = createReconciler({ ...shared, onEvent: emitFrom('reconciler') });
  const cors = { allowedOrigins: options.allowedOrigins, allowedHeaders: options.allowedHeaders };

  function build(statusSecret: StatusSecret): Endpoints {
    return {
      session: createSessionHandler({
        ...cors,
        gateway,
        payments: stores.payments,
        idempotency: stores.idempotency,
        statusSecret,
        statusUrl: STATUS_PATH,
        order: withDefaultUrls(options.order, options.publicUrl),
        beforeInitiate: options.beforeInitiate,
        clientAddress: options.clientAddress,
        walletDaysActive: options.walletDaysActive,
        transferValidityMs: options.transferValidityMs,
        onEvent: emitFrom('session'),
        now,
      }),
      status: createStatusHandler({ ...cors, ...shared, statusSecret, onEvent: emitFrom('status') }),
      webhook: createWebhookHandler({ ...shared, onEvent: emitFrom('webhook') }),
    };
  }

  // The endpoints wait for the status secret, read from the stores on the first request when none
  // was given; a store that failed is asked again by the next request.
  let endpoints: Promise<Endpoints> | undefined;
  const ready = (): Promise<Endpoints> =>
    (endpoints ??= keptSecret(options).then(build, (error: unknown) => {
      endpoints = undefined;
      throw error;
    }));
  if (options.statusSecret !== undefined) endpoints = Promise.resolve(build(options.statusSecret));

  const stopSweeping = startReconciler(options, reconciler.start);

  return {
    handler: routeByLastSegment(ready, (name, error) =>
      emitFrom(name)({ type: 'internal-error', where: 'handler', detail: errorName(error) }),
    ),
    sweep: () => reconciler.run(),
    close: () => stopSweeping?.() ?? Promise.resolve(),
  };
}

/** The given secret, or the one kept in the stores (made here the first time, by whichever instance is first). */
async function keptSecret(options: PaymentsOptions): Promise<StatusSecret> {
  const candidate = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  return options.stores.idempotency.keepSecret!(SECRET_NAME, candidate);
}

/** Starts the timed sweeps unless turned off or the runtime allows no timer outside a request (workerd). */
function startReconciler(
  options: PaymentsOptions,
  start: (everyMs: number) => () => Promise<void>,
): (() => Promise<void>) | undefined {
  if (options.reconcile === false) return undefined;
  if ((globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers')
    return undefined;
  return start(options.reconcile?.everyMs ?? DEFAULT_SWEEP_EVERY_MS);
}
