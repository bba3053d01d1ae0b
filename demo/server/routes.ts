// The demo's routes: the package's session, status and webhook handlers wired to the demo's
// gateway, stores and loop log, and the demo's own endpoints (demo-endpoints.ts); `demoHooks`, the
// merchant's onPaid and onFailed, shared with the reconciler (reconciler.ts).
import type { SandboxGateway } from '../../src/sandbox/index.js';
import {
  createSessionHandler,
  createStatusHandler,
  createWebhookHandler,
  type Gateway,
  type IdempotencyStore,
  type Payment,
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
  /** The in-process sandbox, when there is no real gateway: "the customer paid" needs it. */
  sandbox: SandboxGateway | undefined;
  /** The "webhook lost" switch, with the sandbox only. */
  webhookLost: WebhookLost | undefined;
  loop: LoopLog;
  log: Log;
};

export type DemoHooks = { onPaid: (payment: Payment) => void; onFailed: (payment: Payment) => void };

/** The merchant's side: `onPaid` ships the order (here: says so in the loop's log and the terminal). */
export function demoHooks(loop: LoopLog, log: Log): DemoHooks {
  return {
    onPaid: (payment) => {
      loop.onPaid(payment);
      log.info(`pay-widget demo: paid ${payment.paymentReference} (${payment.currency} ${payment.amount})`);
    },
    onFailed: loop.onFailed,
  };
}

export function createDemoRoutes(options: DemoRouteOptions): Record<string, Handler> {
  const { gateway, payments, loop, log, webhookLost } = options;
  /** An endpoint's `onEvent`: into the loop's log, and internal errors to the terminal too. */
  const logged =
    <Event extends { type: string }>(where: string, toLoop: (event: Event) => void) =>
    (event: Event) => {
      toLoop(event);
      if (event.type === 'internal-error') log.warn(`pay-widget demo: ${where} ${JSON.stringify(event)}`);
    };
  const { onPaid, onFailed } = demoHooks(loop, log);
  const session = createSessionHandler({
    gateway,
    payments,
    idempotency: options.idempotency,
    statusSecret: options.statusSecret,
    order: createDemoOrder(options.publicOrigin),
    // The sandbox's 504 magic amount answers after 20 s; the gateway client (createGateway's
    // timeoutMs, 15 s) gives up first: 504 gateway_timeout about 15 s after Pay.
    timeoutMs: 10_000,
    ...(options.transferValidityMs === undefined ? {} : { transferValidityMs: options.transferValidityMs }),
    onEvent: logged('session', (event) => {
      if (event.type === 'initiated') webhookLost?.started(event.paymentReference);
      loop.session(event);
    }),
  });
  const webhook = createWebhookHandler({ gateway, payments, onPaid, onFailed, onEvent: logged('webhook', loop.webhook) });
  const statusOptions = {
    statusSecret: options.statusSecret,
    payments,
    gateway,
    onEvent: logged('status', loop.status),
    onError: (error: unknown) => log.warn(`pay-widget demo: status failed: ${String(error)}`),
  };
  const status = createStatusHandler({ ...statusOptions, onPaid, onFailed });
  // Without onPaid, the status handler answers from the ledger and never re-queries.
  const ledgerOnlyStatus = createStatusHandler(statusOptions);
  return {
    [DEMO_PATHS.session]: session,
    [DEMO_PATHS.status]: loggedStatus((request) => {
      const reference = new URL(request.url).searchParams.get('paymentReference');
      return (reference !== null && webhookLost?.has(reference) ? ledgerOnlyStatus : status)(request);
    }, loop),
    [DEMO_PATHS.webhook]: webhook,
    [DEMO_PATHS.simulate]: simulateEndpoint(options.sandbox, loop, log),
    [DEMO_PATHS.events]: eventsEndpoint(loop, log),
    [DEMO_PATHS.webhookLost]: webhookLostEndpoint(webhookLost, log),
  };
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
