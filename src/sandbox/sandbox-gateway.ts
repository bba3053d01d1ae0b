// `createSandboxGateway`: the sandbox's shared state (tokens, payments, webhook sender), its route
// table (routes/: token, initiate, query) and the dispatch of each request to its route.
import { customerPaidHandler } from './customer-paid.js';
import { requireMethod } from '../contract/request-checks.js';
import { optionChecks } from '../contract/option-checks.js';
import type { PaymentStatus, StatusResponse } from '../contract/schemas.js';
import { productionRefusal } from './environment.js';
import { failure, notificationBody } from './answers.js';
import { createPaymentBook, type SandboxStorage } from './payments.js';
import { initiateRoute } from './routes/initiate.js';
import { queryRoute } from './routes/query.js';
import { delay, problemAnswer, type SandboxContext, type SandboxRoute } from './routes/route.js';
import { tokenRoute } from './routes/token.js';
import { createSandboxTokens } from './tokens.js';
import { createWebhookSender, DEFAULT_RETRY_DELAYS_MS, type WebhookAttempt } from './webhooks.js';

export const SANDBOX_ACCESS_TOKEN = 'sk_sandbox_3f9c2a7e5d1b4c8a';
export const SANDBOX_PUBLIC_KEY = 'pk_sandbox_7b1e4d9a2c6f8e05';
/** The dashboard's secret key of the sandbox's merchant: with the public key, it buys tokens at `encrypt/keys`. */
export const SANDBOX_SECRET_KEY = 'sk_sandbox_secret_5e8a1c4f9b2d7e63';

export type SandboxGatewayOptions = {
  /** The bearer token it accepts; default {@link SANDBOX_ACCESS_TOKEN}. */
  accessToken?: string;
  /** The `publicKey` it accepts; default {@link SANDBOX_PUBLIC_KEY}. */
  publicKey?: string;
  /** Used to build TRANSFER wallet names; default `Sandbox Merchant`. */
  merchantName?: string;
  /** The bank that holds TRANSFER accounts; default `Sandbox Bank`. */
  bankName?: string;
  /** Added to every answer, to feel a network; default 0. */
  latencyMs?: number;
  /** How long magic amount 504 waits before answering; default 35 000 ms. */
  slowMs?: number;
  /** Source of randomness for numbers and references, for reproducible tests; default `Math.random`. */
  random?: () => number;
  /** The secret key `encrypt/keys` accepts with `publicKey`; default {@link SANDBOX_SECRET_KEY}. */
  secretKey?: string;
  /** How long a token from `encrypt/keys` is accepted, then 401; default one hour. */
  tokenTtlMs?: number;
  /** Clock for token expiry and dates, for tests; default `Date.now`. */
  now?: () => number;
  /** Where to POST the gateway's notification when `setStatus` marks a payment paid or failed. */
  webhookUrl?: string;
  /** Used to deliver webhooks; default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Waits before each retry of an unacknowledged webhook; default the gateway's 30 s, 2 min, 10 min, 30 min, 1 h. */
  webhookRetryDelaysMs?: readonly number[];
  /** Sends every notification twice, at once, to rehearse de-duplication; default false. */
  duplicateWebhooks?: boolean;
  /** Told about every delivery attempt (the demo's event log). */
  onWebhook?: (attempt: WebhookAttempt) => void;
  /**
   * Lets the sandbox start where `NODE_ENV` is `production` (a public demo that takes no money);
   * without it, it throws there, so a deployment never answers customers with fake payment
   * instructions by mistake. Default false.
   */
  allowInProduction?: boolean;
  /**
   * How many payments it keeps in memory; beyond that, the one settled longest ago is forgotten
   * (then it is unknown to `lookup` and the query), a pending one only when all are pending.
   * Default 10 000 (about 7 MB).
   */
  maxPayments?: number;
  /** Keeps the payments between runs (load at start, save after each change); default: memory only. */
  storage?: SandboxStorage;
};

export type SandboxStatus = { status: PaymentStatus; message: string | undefined };

export type SandboxGateway = ((request: Request) => Promise<Response>) & {
  /** A `fetch` that reaches this sandbox in-process, for `createSessionHandler({ fetch })`. */
  fetch: typeof globalThis.fetch;
  /** Marks a payment paid or failed; false when the reference is unknown. */
  setStatus(paymentReference: string, status: 'SUCCESS' | 'FAILED', message?: string): boolean;
  /** `PENDING` after initiation until `setStatus`; undefined when the reference is unknown. */
  lookup(paymentReference: string): (StatusResponse & SandboxStatus) | undefined;
  /**
   * "The customer paid", for a demo page's button: a Fetch-API handler, `POST` with the reference as
   * the body (204 paid, 404 unknown). It answers only the person at this machine: anything that came
   * through a proxy or a tunnel, names another host or arrived from another address gets 403.
   * `app.post('/sandbox/paid', toNodeHandler({ handler: sandbox.customerPaid }))`.
   */
  customerPaid(request: Request, env?: unknown): Promise<Response>;
  /** Resolves once every webhook sent so far was acknowledged or given up (for tests). */
  webhooksSettled(): Promise<void>;
  /** Cancels waiting webhook retries; nothing more is sent. */
  close(): void;
};

const DEFAULT_MESSAGES = { SUCCESS: 'Payment received.', FAILED: 'Payment failed.' } as const;

/**
 * An offline stand-in for the gateway's `POST {base_url}/api/v2/payments/initiates`, faithful to
 * what it publishes (docs/architecture.md, "The initiation"). Any path ending in that suffix is
 * served, so it can be mounted under a prefix. Magic amounts ({@link MAGIC_AMOUNTS}) produce
 * failures and delays.
 */
export function createSandboxGateway(options: SandboxGatewayOptions = {}): SandboxGateway {
  assertOptions(options);
  const publicKey = options.publicKey ?? SANDBOX_PUBLIC_KEY;
  const now = options.now ?? Date.now;
  const context: SandboxContext = {
    publicKey,
    slowMs: options.slowMs ?? 35_000,
    tokens: createSandboxTokens({
      secretKey: options.secretKey ?? SANDBOX_SECRET_KEY,
      publicKey,
      accessToken: options.accessToken ?? SANDBOX_ACCESS_TOKEN,
      ttlMs: options.tokenTtlMs ?? 3_600_000,
      now,
    }),
    payments: createPaymentBook({
      merchantName: options.merchantName ?? 'Sandbox Merchant',
      bankName: options.bankName ?? 'Sandbox Bank',
      random: options.random ?? Math.random,
      now,
      maxPayments: options.maxPayments ?? 10_000,
      storage: options.storage,
    }),
  };
  const webhooks =
    options.webhookUrl === undefined
      ? undefined
      : createWebhookSender({
          url: options.webhookUrl,
          fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
          retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
          onAttempt: options.onWebhook,
        });
  const gateway = dispatcher([initiateRoute(context), tokenRoute(context), queryRoute(context)], options.latencyMs);

  function setStatus(paymentReference: string, status: 'SUCCESS' | 'FAILED', message?: string): boolean {
    const payment = context.payments.settle(paymentReference, status, message ?? DEFAULT_MESSAGES[status]);
    if (!payment) return false;
    const notification = notificationBody(payment, publicKey, crypto.randomUUID());
    webhooks?.send(paymentReference, notification);
    if (options.duplicateWebhooks) webhooks?.send(paymentReference, notification);
    return true;
  }

  return Object.assign(gateway, {
    fetch: ((input, init) => gateway(new Request(input, init))) as typeof globalThis.fetch,
    setStatus,
    customerPaid: customerPaidHandler(setStatus),
    lookup(paymentReference: string) {
      const payment = context.payments.get(paymentReference);
      return payment && { status: payment.status, message: payment.message };
    },
    webhooksSettled: async () => webhooks?.settled(),
    close: () => webhooks?.close(),
  });
}

/** Each request to the first route whose path matches, after `latencyMs` and the route's method check; 404 when none does. */
function dispatcher(routes: readonly SandboxRoute[], latencyMs: number | undefined) {
  return async (request: Request): Promise<Response> => {
    if (latencyMs) await delay(latencyMs, request.signal);
    const path = new URL(request.url).pathname;
    for (const route of routes) {
      const params = route.match(path);
      if (!params) continue;
      const wrongMethod = requireMethod(request, route.allow);
      return wrongMethod ? problemAnswer(wrongMethod) : route.handle(request, params);
    }
    return failure(404, 'Not found.');
  };
}

/** Options the types allow but that cannot work, refused when created rather than on the first request or delivery. */
function assertOptions(options: SandboxGatewayOptions): void {
  const checks = optionChecks('createSandboxGateway');
  const refusal = options.allowInProduction === true ? undefined : productionRefusal();
  if (refusal) checks.fail(refusal);
  checks.absoluteUrl('webhookUrl', options.webhookUrl);
  checks.positiveMs('tokenTtlMs', options.tokenTtlMs);
  checks.nonNegativeMs('latencyMs', options.latencyMs);
  checks.nonNegativeMs('slowMs', options.slowMs);
  for (const name of ['random', 'now', 'fetch', 'onWebhook'] as const) checks.optionalFunction(name, options[name]);
  const max = options.maxPayments;
  if (max !== undefined && !(Number.isSafeInteger(max) && max > 0))
    checks.fail('maxPayments must be a positive whole number');
  const delays = options.webhookRetryDelaysMs;
  if (
    delays !== undefined &&
    !(Array.isArray(delays) && delays.every((ms) => typeof ms === 'number' && Number.isFinite(ms) && ms >= 0))
  ) {
    checks.fail('webhookRetryDelaysMs must be a list of finite, non-negative numbers');
  }
}
