// What a merchant gives `createPayments`, declared once for the session, status and webhook
// endpoints and the reconciler, and the checks that refuse, when it is created, what cannot work.
import type { Gateway } from './gateway/gateway.js';
import type { AllowedOrigins } from './http/cors.js';
import type { BeforeInitiate, Order, OrderContext } from './session/order.js';
import { assertStore } from './options.js';
import { isLocalOnlyHostname } from '../contract/loopback.js';
import { optionChecks } from '../contract/option-checks.js';
import type { PaymentHook } from './settlement/settle.js';
import type { ClientAddress } from './session/client-address.js';
import type { SessionEvent } from './session/events.js';
import type { StatusEvent } from './status/handler.js';
import type { StatusSecret } from './status/tokens.js';
import { isLiveGateway } from './stores/memory-warning.js';
import { PAYMENT_STORE_METHODS, type PaymentStore } from './stores/types.js';
import { IDEMPOTENCY_STORE_METHODS, type IdempotencyStore } from './stores/idempotency-types.js';
import type { WebhookEvent } from './webhook/events.js';
import type { ReconcileEvent } from './reconciler/reconciler.js';
import type { SessionRequest } from '../contract/schemas.js';

/** What `createSqliteStores`, `createPostgresStores`, `createRedisStores` and `createMemoryStores` return. */
export type PaymentsStores = { payments: PaymentStore; idempotency: IdempotencyStore };

/** The order, decided on the server; `callbackUrl` and `redirectUrl` default from `publicUrl`. */
export type PaymentsOrder = Omit<Order, 'callbackUrl' | 'redirectUrl'> &
  Partial<Pick<Order, 'callbackUrl' | 'redirectUrl'>>;

/** Decides what a validated widget request is charged; throw an `OrderError` to refuse it. */
export type PaymentsOrderResolver = (
  request: SessionRequest,
  context: OrderContext,
) => PaymentsOrder | Promise<PaymentsOrder>;

/** Every decision of every endpoint and the reconciler; never a token, a key or a customer detail. */
export type PaymentsEvent = SessionEvent | StatusEvent | WebhookEvent | ReconcileEvent;

/** Where an event happened: one of the three endpoints, or the reconciler's sweep. */
export type PaymentsEventSource = { endpoint: 'session' | 'status' | 'webhook' | 'reconciler' };

export type PaymentsOptions = {
  /** `createGateway({ baseUrl, publicKey, secretKey })`, or the same over the sandbox's `fetch`. */
  gateway: Gateway;
  /** The ledger and the idempotency records: `createSqliteStores(file)` on one machine. */
  stores: PaymentsStores;
  /** Decides the amount charged, whatever the page showed. Runs once per payment attempt. */
  order: PaymentsOrderResolver;
  /**
   * Your fulfilment: runs for every payment the gateway confirmed, for the ledger's amount and
   * currency, until it returns without throwing, and never after. Make it idempotent by reference.
   */
  onPaid: PaymentHook;
  /** Advisory: once per payment the gateway reported failed. */
  onFailed?: PaymentHook;
  /** For logs and alerts, with where it happened. A throw or a rejection here never changes a payment. */
  onEvent?: (event: PaymentsEvent, source: PaymentsEventSource) => void | Promise<void>;
  /** Rate limits and fraud rules, before the order is resolved (throw `RateLimitError` or `OrderError`). */
  beforeInitiate?: BeforeInitiate;
  /** Browser origins allowed besides the handler's own, or `'*'`; default same origin only. */
  allowedOrigins?: AllowedOrigins;
  /** Request headers a cross-origin page may send besides the widget's own. */
  allowedHeaders?: readonly string[];
  /** The client's address for `beforeInitiate`; default the socket's peer (see `forwardedFor`). */
  clientAddress?: ClientAddress;
  /**
   * Where the handler is reachable from the internet, such as `https://shop.example/pay`: the
   * gateway's `callbackUrl` defaults to `publicUrl + '/webhook'`, and `redirectUrl` to its origin.
   * A loopback address is refused with live keys (the gateway could never reach it).
   */
  publicUrl: string;
  /**
   * Signs the status token the widget polls with (at least 32 bytes). Default: one generated once
   * and kept in `stores.idempotency`, so tokens survive a restart and every instance agrees.
   */
  statusSecret?: StatusSecret;
  /** The reconciler: `false` (run `sweep()` from a cron), or how often; default every 60 s where timers run. */
  reconcile?: false | { everyMs?: number };
  /** TRANSFER: how many days the account stays open, as the gateway takes it (`"1"` to `"999"`); default `"1"`. */
  walletDaysActive?: string;
  /** TRANSFER: how long the customer is told the account is valid; default 30 minutes. */
  transferValidityMs?: number;
  /** `onPaid`'s lease (how long it outlives a dead process) and time limit; defaults 60 s and 30 s. */
  fulfilment?: { leaseMs?: number; onPaidTimeoutMs?: number };
  /** The clock, ms since the epoch; default `Date.now`. For tests. */
  now?: () => number;
};

export const DEFAULT_SWEEP_EVERY_MS = 60_000;

/** Throws one TypeError line naming the option when one cannot work. */
export function checkPaymentsOptions(options: PaymentsOptions): void {
  const check = optionChecks('createPayments');
  if (!options) check.fail('options are required');
  const gateway = options.gateway;
  if (typeof gateway?.initiate !== 'function' || typeof gateway.query !== 'function') {
    check.fail('gateway must be a createGateway(…) object');
  }
  if (!options.stores) check.fail('stores is required: createSqliteStores(file) on one machine');
  assertStore(options.stores.payments, PAYMENT_STORE_METHODS, 'createPayments: stores.payments');
  assertStore(
    options.stores.idempotency,
    IDEMPOTENCY_STORE_METHODS,
    'createPayments: stores.idempotency (it must claim keys atomically)',
  );
  check.requiredFunction('order', options.order);
  check.requiredFunction('onPaid', options.onPaid);
  for (const name of ['onFailed', 'onEvent', 'beforeInitiate', 'clientAddress', 'now'] as const)
    check.optionalFunction(name, options[name]);
  if (
    typeof options.publicUrl !== 'string' ||
    !/^https?:\/\//.test(options.publicUrl) ||
    !URL.canParse(options.publicUrl)
  ) {
    check.fail(
      'publicUrl must be the absolute http(s) URL the handler is reachable at, such as https://shop.example/pay',
    );
  }
  if (isLocalOnlyHostname(new URL(options.publicUrl).hostname) && isLiveGateway(gateway)) {
    check.fail(
      `publicUrl ${options.publicUrl} is this machine, which the gateway cannot reach with live keys: give the public https URL`,
    );
  }
  if (options.statusSecret === undefined && typeof options.stores.idempotency.keepSecret !== 'function') {
    check.fail('stores.idempotency cannot keep the status secret (no keepSecret()): pass statusSecret');
  }
  const { reconcile } = options;
  if (reconcile !== undefined && reconcile !== false && (typeof reconcile !== 'object' || reconcile === null)) {
    check.fail('reconcile must be false or { everyMs }');
  }
  if (reconcile) check.positiveMs('reconcile.everyMs', reconcile.everyMs);
  check.positiveMs('fulfilment.leaseMs', options.fulfilment?.leaseMs);
  check.positiveMs('fulfilment.onPaidTimeoutMs', options.fulfilment?.onPaidTimeoutMs);
}

/** The order with the URLs `publicUrl` gives when the resolver names none. */
export function withDefaultUrls(
  resolve: PaymentsOrderResolver,
  publicUrl: string,
): (request: SessionRequest, context: OrderContext) => Promise<Order> {
  const base = publicUrl.replace(/\/+$/, '');
  const callbackUrl = `${base}/webhook`;
  const redirectUrl = `${new URL(base).origin}/`;
  return async (request, context) => {
    const order = await resolve(request, context);
    if (typeof order !== 'object' || order === null) return order as Order; // refused by the order's own check
    return { ...order, callbackUrl: order.callbackUrl ?? callbackUrl, redirectUrl: order.redirectUrl ?? redirectUrl };
  };
}
