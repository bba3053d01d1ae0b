// The session handler's options: what the merchant gives `createSessionHandler`, and the checks
// that refuse, when the handler is made, an option that cannot work.
import { WALLET_DAYS_ACTIVE } from '../../contract/schemas.js';
import type { AccessToken, Gateway } from '../gateway/gateway.js';
import type { AllowedOrigins } from '../http/cors.js';
import type { BeforeInitiate, OrderResolver } from './order.js';
import { optionChecks } from '../../contract/option-checks.js';
import type { StatusSecret } from '../status/tokens.js';
import type { PaymentStore } from '../stores/types.js';
import type { IdempotencyStore } from '../stores/idempotency-types.js';
import type { ClientAddress } from './client-address.js';
import type { SessionEventListener } from './events.js';

export type { AccessToken } from '../gateway/gateway.js';

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
   * `Idempotency-Key`, but a lost record (a store emptied, a record expired) runs it again: then the
   * payment the ledger recorded for the key is asked about again, with its own reference, amount
   * and currency, whatever the resolver returns this time. Without a `paymentReference`, the
   * handler derives it from the key (`pw-` and 32 hex digits); your own should come from your cart
   * or order id, never at random.
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
  /** How long a definitive answer (instructions, a decline, a gateway 4xx) is replayed; default 24 h. */
  idempotencyTtlMs?: number;
  /**
   * How long the order of an attempt the gateway left undecided (time-out, refused connection, 5xx,
   * unreadable answer) is kept, so its retry names the same payment; default 10 minutes.
   */
  pendingTtlMs?: number;
  /**
   * The payment ledger: every payment is recorded `PENDING` before the gateway is asked (when it
   * cannot be, the answer is 503 `server_busy` and nothing is started). Default: in memory.
   */
  payments?: PaymentStore;
  /**
   * Signs `order.statusToken` in the success body (HMAC-SHA256), which the status handler requires;
   * at least 32 bytes, the same secret on both handlers. Without it the body has no `statusToken`.
   */
  statusSecret?: StatusSecret;
  /** How long a `statusToken` works; default 24 h. */
  statusTokenTtlMs?: number;
  /**
   * With `statusSecret`: sent as `order.statusUrl`, where the widget polls when its page sets no
   * `status-url`; a URL relative to the session endpoint's (`createPayments` sends `status`).
   */
  statusUrl?: string;
  /**
   * Runs for every valid request before its order is resolved: rate limits, fraud rules. Throw
   * `new RateLimitError({ retryAfterSeconds })` for a 429 with `Retry-After`, or an `OrderError`.
   */
  beforeInitiate?: BeforeInitiate;
  /**
   * The client address given to `beforeInitiate`, asked with the request and the handler's second
   * argument (may be async). Default: the socket's peer as @hono/node-server, `Deno.serve` or
   * `Bun.serve` pass it; never a header. Behind a proxy or a platform that names the client in a
   * header, say which: `forwardedFor({ trustedProxies: 1 })`, `addressHeader('cf-connecting-ip')`.
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
  /**
   * TRANSFER: how many days the gateway keeps the account open, sent as `walletDaysActive`; a
   * whole number of days (1 to 999) as a string; default `"1"`, as the gateway's own apps send.
   */
  walletDaysActive?: string;
  /**
   * TRANSFER: how long the customer is told the account is valid, as `order.expiresAt` in the
   * success body (the widget counts down to it); default 30 minutes, what the gateway's apps say.
   * Only what the customer is told: the ledger never fails a payment on a timer, and a late
   * transfer is settled by the gateway's answer.
   */
  transferValidityMs?: number;
  /**
   * The server's clock, in milliseconds since the epoch; default `Date.now`. The ledger entries it
   * writes, `order.expiresAt` and the time left sent with it (`order.expiresInMs`) are read from it
   * (tests move it).
   */
  now?: () => number;
};

const GATEWAY_PARTS = ['baseUrl', 'publicKey', 'accessToken'] as const;
const DURATIONS = [
  'maxBodyBytes',
  'timeoutMs',
  'attemptTimeoutMs',
  'idempotencyTtlMs',
  'pendingTtlMs',
  'statusTokenTtlMs',
  'transferValidityMs',
] as const;

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
  checks.optionalFunction('now', options.now);
  for (const name of DURATIONS) checks.positiveMs(name, options[name]);
  const days = options.walletDaysActive;
  if (days !== undefined && !(typeof days === 'string' && WALLET_DAYS_ACTIVE.test(days))) {
    checks.fail('walletDaysActive must be a whole number of days from 1 to 999, as a string such as "1"');
  }
}

/** TRANSFER's terms with their defaults: the `walletDaysActive` sent, the validity the customer is told, and the clock that counts it. */
export type TransferTerms = { walletDaysActive: string; validityMs: number; now: () => number };

/** How long the gateway keeps a TRANSFER account open: `walletDaysActive` days. */
export function accountLife(terms: TransferTerms): number {
  return Number(terms.walletDaysActive) * 24 * 60 * 60 * 1000;
}

export function transferTerms(options: SessionHandlerOptions): TransferTerms {
  return {
    walletDaysActive: options.walletDaysActive ?? '1',
    validityMs: options.transferValidityMs ?? 30 * 60 * 1000,
    now: options.now ?? Date.now,
  };
}
