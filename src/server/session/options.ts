// The session handler's options: what the merchant gives `createSessionHandler`, and the checks
// that refuse, when the handler is made, an option that cannot work.
import type { AccessToken, Gateway } from '../gateway.js';
import type { AllowedOrigins } from '../http/cors.js';
import type { BeforeInitiate, OrderResolver } from '../order.js';
import { optionChecks } from '../options.js';
import type { StatusSecret } from '../status/tokens.js';
import type { IdempotencyStore, PaymentStore } from '../stores.js';
import type { ClientAddress } from './client-address.js';
import type { SessionEventListener } from './events.js';

export type { AccessToken } from '../gateway.js';

export type SessionHandlerOptions = {
  /**
   * The gateway, as made by `createGateway({ baseUrl, publicKey, secretKey | accessToken })` (the
   * object the status and webhook handlers take too): it makes, caches and renews the token. Or
   * give `baseUrl`, `publicKey` and `accessToken` instead, and the handler makes one.
   */
  gateway?: Pick<Gateway, 'initiate' | 'publicKey'> & Partial<Pick<Gateway, 'redact'>>;
  /** Without `gateway`: the gateway's base URL; the handler posts to `{baseUrl}/api/v2/payments/initiates`. */
  baseUrl?: string;
  /** Without `gateway`: the merchant's public key, sent in the gateway request body. */
  publicKey?: string;
  /** Without `gateway`: the bearer token, or a function returning it, called per gateway request (for rotating tokens). */
  accessToken?: AccessToken;
  /**
   * Decides amount, currency, country, paymentReference and URLs on the server. It runs once per
   * `Idempotency-Key`, but a lost record (a store emptied, a record expired) runs it again: a
   * resolver that sets `paymentReference` must return the same one for the same key (derive it
   * from the key, or from the merchant's own order), or the retry may start a second payment.
   * Without one, the handler derives it from the key (`pw-` and 32 hex digits).
   */
  order: OrderResolver;
  /**
   * Browser origins allowed besides the endpoint's own, or `'*'`. Requests without an `Origin`
   * header (server to server) are always allowed. Default: same origin only.
   */
  allowedOrigins?: AllowedOrigins;
  /**
   * Request headers a cross-origin page may send besides Content-Type and Idempotency-Key, e.g. the
   * auth header a merchant's `initiate` adds.
   */
  allowedHeaders?: readonly string[];
  /** How long to wait for the gateway, body included; default 10 000 ms (with `gateway`, its own `timeoutMs` applies). */
  timeoutMs?: number;
  /**
   * One deadline on a whole request: reading its body, `beforeInitiate`, the claim on the
   * Idempotency-Key, the order resolver, the token source, the stores and the gateway together;
   * default twice `timeoutMs` (20 s, under the widget's 30 s, so the customer sees this answer). A body
   * still arriving then is answered 408 `request_timeout`. Past it otherwise the answer is 504
   * `gateway_timeout`, as for a gateway time-out (the widget offers a retry with the same key, which
   * reuses the stored order), unless the gateway had already answered, and `onEvent` receives an
   * `internal-error` with `where: 'deadline'` naming what it was waiting for.
   */
  attemptTimeoutMs?: number;
  /** Default `globalThis.fetch`; with `gateway`, give it to `createGateway` instead. */
  fetch?: typeof globalThis.fetch;
  /**
   * Logging hook. Never sees the token or the public key; the customer's e-mail, mobile number and
   * full name are redacted from every `detail` (a gateway or a resolver may quote them).
   */
  onEvent?: SessionEventListener;
  /**
   * Where `Idempotency-Key` records live. Default: in memory, for this process (several handlers in
   * it may share one). Several server instances share one store that claims keys atomically, such as
   * `createRedisStores(client).idempotency` from `pay-widget/server/redis`. A store without
   * `claim`/`release` is refused with a TypeError.
   */
  idempotency?: IdempotencyStore;
  /** The former name of `idempotency`. */
  idempotencyStore?: IdempotencyStore;
  /** How long a definitive answer (instructions, a decline, a gateway 4xx) is replayed; default 24 h. */
  idempotencyTtlMs?: number;
  /**
   * How long the order of an attempt the gateway left undecided (time-out, refused connection, 5xx,
   * unreadable answer) is kept, so its retry names the same payment; default 10 minutes.
   */
  pendingTtlMs?: number;
  /** The payment ledger: every payment the gateway accepted is recorded `PENDING`. Default: in memory. */
  payments?: PaymentStore;
  /**
   * Signs `order.statusToken` in the success body (HMAC-SHA256), which the status handler requires;
   * at least 32 bytes, the same secret on both handlers. Without it the body has no `statusToken`.
   */
  statusSecret?: StatusSecret;
  /** How long a `statusToken` works; default 24 h. */
  statusTokenTtlMs?: number;
  /**
   * Runs for every valid request before its order is resolved: rate limits, fraud rules. Throw
   * `new RateLimitError({ retryAfterSeconds })` for a 429 with `Retry-After`, or an `OrderError`.
   */
  beforeInitiate?: BeforeInitiate;
  /**
   * The client address given to `beforeInitiate`. Default: what @hono/node-server or `Deno.serve`
   * pass as the handler's second argument (the socket's peer). Behind a proxy, read its header here.
   */
  clientAddress?: ClientAddress;
  /**
   * Default `true`: a request without an `Idempotency-Key` header is answered 400
   * `missing_idempotency_key` (the widget always sends one). `false` lets server-to-server callers
   * that cannot send one through, each such request a new payment.
   */
  requireIdempotencyKey?: boolean;
  /** Largest accepted request body; default 16 KiB. */
  maxBodyBytes?: number;
};

const GATEWAY_PARTS = ['baseUrl', 'publicKey', 'accessToken'] as const;
const DURATIONS = ['maxBodyBytes', 'timeoutMs', 'attemptTimeoutMs', 'idempotencyTtlMs', 'pendingTtlMs', 'statusTokenTtlMs'] as const;

/** Throws a TypeError naming the option when one cannot work; the stores are checked where they are made. */
export function checkSessionOptions(options: SessionHandlerOptions): void {
  const checks = optionChecks('createSessionHandler');
  if (!options?.order) checks.fail('missing option(s) order');
  if (options.gateway !== undefined) {
    const given = ([...GATEWAY_PARTS, 'fetch'] as const).filter((name) => options[name] !== undefined);
    if (given.length > 0) checks.fail(`give either gateway or ${given.join(', ')}, not both`);
    if (typeof options.gateway?.initiate !== 'function' || typeof options.gateway.publicKey !== 'string') {
      checks.fail('gateway must be a createGateway(…) object');
    }
  } else {
    const missing = GATEWAY_PARTS.filter((name) => !options[name]);
    if (missing.length > 0) checks.fail(`missing option(s) ${missing.join(', ')} (or give gateway)`);
    checks.absoluteUrl('baseUrl', options.baseUrl);
  }
  checks.optionalFunction('beforeInitiate', options.beforeInitiate);
  checks.optionalFunction('clientAddress', options.clientAddress);
  for (const name of DURATIONS) checks.positiveMs(name, options[name]);
}
