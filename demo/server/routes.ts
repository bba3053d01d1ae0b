// The demo's routes: the package's payments handler (createPayments: session, status, webhook and
// the reconciler) wired to the demo's gateway, stores and loop log, and the demo's own endpoints
// (demo-endpoints.ts).
import type { SandboxGateway } from '../../src/sandbox/index.js';
import {
  createLedgerPage,
  createPayments,
  createStatusHandler,
  type Gateway,
  type IdempotencyStore,
  type Payment,
  type PaymentsEvent,
  type PaymentsEventSource,
  type PaymentStore,
} from '../../src/server/internal.js';
import type { LoopLog } from '../loop-log.js';
import type { Log } from './config.js';
import { eventsEndpoint, simulateEndpoint, webhookLostEndpoint, type Handler } from './demo-endpoints.js';
import { createDemoOrder } from './order.js';
import type { WebhookLost } from './webhook-lost.js';

export type { Handler } from './demo-endpoints.js';

export const DEMO_PATHS = {
  session: '/pay/session',
  status: '/pay/status',
  webhook: '/pay/webhook',
  simulate: '/pay/simulate',
  events: '/demo/events',
  webhookLost: '/demo/webhook-lost',
  ledger: '/admin/payments',
} as const;

type DemoRouteOptions = {
  gateway: Gateway;
  payments: PaymentStore;
  idempotency: IdempotencyStore;
  statusSecret: string | Uint8Array;
  /** How long a transfer's account is shown as valid (PAY_TRANSFER_VALIDITY_MS); the handler's default when undefined. */
  transferValidityMs: number | undefined;
  /** Where the demo is reached (callbackUrl and redirectUrl); undefined until it is known. */
  publicOrigin: () => string | undefined;
  /** PAY_PUBLIC_ORIGIN, when set: where the gateway reaches the demo. */
  configuredOrigin: string | undefined;
  /** How often the reconciler sweeps (PAY_RECONCILE_INTERVAL_MS). */
  reconcileIntervalMs: number;
  /** The clock, for tests that move past an entry's first check; default `Date.now`. */
  now: (() => number) | undefined;
  /** The in-process sandbox, when there is no real gateway: "the customer paid" needs it. */
  sandbox: SandboxGateway | undefined;
  /** The "webhook lost" switch, with the sandbox only. */
  webhookLost: WebhookLost | undefined;
  loop: LoopLog;
  log: Log;
};

export type DemoRoutes = { routes: Record<string, Handler>; close(): Promise<void> };

/** The merchant's side: `onPaid` ships the order (here: says so in the loop's log and the terminal). */
function demoHooks(
  loop: LoopLog,
  log: Log,
): { onPaid: (payment: Payment) => void; onFailed: (payment: Payment) => void } {
  return {
    onPaid: (payment) => {
      loop.onPaid(payment);
      log.info(`pay-widget demo: paid ${payment.paymentReference} (${payment.currency} ${payment.amount})`);
    },
    onFailed: loop.onFailed,
  };
}

export function createDemoRoutes(options: DemoRouteOptions): DemoRoutes {
  const { gateway, loop, log, webhookLost } = options;
  const payments = createPayments({
    gateway,
    stores: { payments: options.payments, idempotency: options.idempotency },
    statusSecret: options.statusSecret,
    // The demo's order names its own callbackUrl and redirectUrl, from the address it listens at.
    publicUrl: `${options.configuredOrigin ?? 'http://127.0.0.1:5173'}/pay`,
    order: createDemoOrder(options.publicOrigin),
    ...demoHooks(loop, log),
    ...(options.transferValidityMs === undefined ? {} : { transferValidityMs: options.transferValidityMs }),
    reconcile: { everyMs: options.reconcileIntervalMs },
    ...(options.now ? { now: options.now } : {}),
    onEvent: (event, { endpoint }) => {
      toLoop(loop, webhookLost, event, endpoint);
      if (event.type === 'internal-error') log.warn(`pay-widget demo: ${endpoint} ${JSON.stringify(event)}`);
      if (event.type === 'stale')
        log.warn(`pay-widget demo: ${event.paymentReference} is stale: look at it in the gateway's dashboard`);
    },
  });
  loop.reconcilerStarted(options.reconcileIntervalMs);
  // The "webhook lost" switch's payments: their status poll reads the ledger only, as a closed tab
  // would never ask the gateway, so the reconciler is what closes their loop. A status handler
  // without onPaid never re-queries; the demo's lesson, not something a shop mounts.
  const ledgerOnlyStatus = createStatusHandler({
    statusSecret: options.statusSecret,
    payments: options.payments,
    gateway,
    onEvent: (event) => loop.status(event),
  });
  const handler: Handler = (request) => payments.handler(request);
  return {
    routes: {
      [DEMO_PATHS.session]: handler,
      [DEMO_PATHS.status]: loggedStatus((request) => {
        const reference = new URL(request.url).searchParams.get('paymentReference');
        return (reference !== null && webhookLost?.has(reference) ? ledgerOnlyStatus : handler)(request);
      }, loop),
      [DEMO_PATHS.webhook]: handler,
      [DEMO_PATHS.simulate]: simulateEndpoint(options.sandbox, loop, log),
      [DEMO_PATHS.events]: eventsEndpoint(loop, log),
      [DEMO_PATHS.webhookLost]: webhookLostEndpoint(webhookLost, log),
      // The ledger for a person. A shop mounts it behind its own login; the demo listens on
      // 127.0.0.1 only, so whoever reaches it is at this machine.
      [DEMO_PATHS.ledger]: createLedgerPage({ stores: { payments: options.payments }, gateway, authorize: () => true }),
    },
    close: () => payments.close(),
  };
}

/** Each event into the loop's log, under the endpoint (or the reconciler) it came from. */
function toLoop(
  loop: LoopLog,
  webhookLost: WebhookLost | undefined,
  event: PaymentsEvent,
  endpoint: PaymentsEventSource['endpoint'],
): void {
  if (endpoint === 'session') {
    if (event.type === 'initiated') webhookLost?.started(event.paymentReference);
    return loop.session(event as Parameters<LoopLog['session']>[0]);
  }
  if (endpoint === 'webhook') return loop.webhook(event as Parameters<LoopLog['webhook']>[0]);
  if (endpoint === 'status') return loop.status(event as Parameters<LoopLog['status']>[0]);
  loop.reconciler(event as Parameters<LoopLog['reconciler']>[0]);
}

/** The status handler, its settled answers written to the loop's log. */
function loggedStatus(statusHandler: Handler, loop: LoopLog): Handler {
  return async (request) => {
    const response = await statusHandler(request);
    if (response.ok && request.method === 'GET') {
      const { status: state } = (await response.clone().json()) as { status: string };
      const reference = new URL(request.url).searchParams.get('paymentReference');
      if (reference && state !== 'PENDING') loop.statusAnswered(reference, state);
    }
    return response;
  };
}
