// The demo's routes: the package's session, status and webhook handlers wired to the demo's
// gateway, stores and loop log, and the demo's own endpoints (demo-endpoints.ts).
import type { SandboxGateway } from '../../src/sandbox/index.js';
import {
  createSessionHandler,
  createStatusHandler,
  createWebhookHandler,
  type Gateway,
  type IdempotencyStore,
  type PaymentStore,
} from '../../src/server/index.js';
import type { LoopLog } from '../loop-log.js';
import type { Log } from './config.js';
import { eventsEndpoint, simulateEndpoint, type Handler } from './demo-endpoints.js';
import { createDemoOrder } from './order.js';

export type { Handler } from './demo-endpoints.js';

export const DEMO_PATHS = {
  session: '/pay/session',
  status: '/pay/status',
  webhook: '/pay/webhook',
  simulate: '/pay/simulate',
  events: '/demo/events',
} as const;

type DemoRouteOptions = {
  gateway: Gateway;
  payments: PaymentStore;
  idempotency: IdempotencyStore;
  statusSecret: string | Uint8Array;
  /** Where the demo is reached (callbackUrl and redirectUrl); undefined until it is known. */
  publicOrigin: () => string | undefined;
  /** The in-process sandbox, when there is no real gateway: "the customer paid" needs it. */
  sandbox: SandboxGateway | undefined;
  loop: LoopLog;
  log: Log;
};

export function createDemoRoutes(options: DemoRouteOptions): Record<string, Handler> {
  const { gateway, payments, loop, log } = options;
  /** An endpoint's `onEvent`: into the loop's log, and internal errors to the terminal too. */
  const logged =
    <Event extends { type: string }>(where: string, toLoop: (event: Event) => void) =>
    (event: Event) => {
      toLoop(event);
      if (event.type === 'internal-error') log.warn(`pay-widget demo: ${where} ${JSON.stringify(event)}`);
    };
  const onPaid = (payment: Parameters<typeof loop.onPaid>[0]) => {
    loop.onPaid(payment);
    log.info(`pay-widget demo: paid ${payment.paymentReference} (${payment.currency} ${payment.amount})`);
  };
  const session = createSessionHandler({
    gateway,
    payments,
    idempotency: options.idempotency,
    statusSecret: options.statusSecret,
    order: createDemoOrder(options.publicOrigin),
    // The sandbox's 504 magic amount answers after 20 s: the handler gives up at 10 s.
    timeoutMs: 10_000,
    onEvent: logged('session', loop.session),
  });
  const webhook = createWebhookHandler({ gateway, payments, onPaid, onFailed: loop.onFailed, onEvent: logged('webhook', loop.webhook) });
  const status = createStatusHandler({
    statusSecret: options.statusSecret,
    payments,
    gateway,
    onPaid,
    onFailed: loop.onFailed,
    onEvent: logged('status', loop.status),
    onError: (error) => log.warn(`pay-widget demo: status failed: ${String(error)}`),
  });
  return {
    [DEMO_PATHS.session]: session,
    [DEMO_PATHS.status]: loggedStatus(status, loop),
    [DEMO_PATHS.webhook]: webhook,
    [DEMO_PATHS.simulate]: simulateEndpoint(options.sandbox, loop, log),
    [DEMO_PATHS.events]: eventsEndpoint(loop, log),
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
