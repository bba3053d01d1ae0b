/**
 * The session endpoint: options, then the request read top to bottom (method, content type,
 * Idempotency-Key, body, validation), handed to the payment attempt (attempt.ts); then the body's
 * validation and what `onEvent` hears.
 */
import {
  PAYMENT_TYPES,
  transferSessionRequestSchema,
  ussdSessionRequestSchema,
  type PaymentType,
  type SessionRequest,
} from '../schemas.js';
import {
  attemptWithoutKey,
  createIdempotentAttempt,
  createSessionReplies,
  paymentSteps,
  withAttemptDeadline,
  type PaymentContext,
} from './attempt.js';
import { createGateway, type AccessToken, type Gateway, type GatewayOutcome } from './gateway.js';
import { readJsonBody, requireJson, requireMethod } from './http/checks.js';
import { createCorsPolicy, type AllowedOrigins } from './http/cors.js';
import { createEmitter } from './http/emitter.js';
import { corsEndpoint } from './http/endpoint.js';
import { createRedactor } from './http/redact.js';
import type { FieldErrors, Reply } from './http/reply.js';
import type { BeforeInitiate, OrderResolver } from './order.js';
import { createStatusTokens, type StatusSecret } from './status/tokens.js';
import {
  createMemoryIdempotencyStore,
  createMemoryPaymentStore,
  IDEMPOTENCY_STORE_METHODS,
  isValidIdempotencyKey,
  PAYMENT_STORE_METHODS,
  type IdempotencyStore,
  type PaymentStore,
} from './stores.js';
import { assertStore } from './options.js';

export type { AccessToken } from './gateway.js';

export type SessionHandlerOptions = {
  /**
   * The gateway, as made by `createGateway({ baseUrl, publicKey, secretKey | accessToken })` (the
   * object the status and webhook handlers take too): it makes, caches and renews the token. Or
   * give `baseUrl`, `publicKey` and `accessToken` instead, and the handler makes one.
   */
  gateway?: Pick<Gateway, 'initiate' | 'publicKey'>;
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

/** `env` is what the server adapter passes beside the request (read by `clientAddress`). */
export type SessionHandler = (request: Request, env?: unknown) => Promise<Response>;

const METHODS = 'POST, OPTIONS';

/**
 * The merchant's session endpoint: validates the widget's request, resolves the order on the
 * server, calls the gateway with the secret, and answers with the gateway's envelope (the spec's
 * fields only) or a JSON error of the session-endpoint contract. A Fetch-API handler for Node
 * (through an adapter), Deno, Bun, edge workers and framework route handlers.
 */
export function createSessionHandler(options: SessionHandlerOptions): SessionHandler {
  assertOptions(options);
  const idempotency = options.idempotency ?? options.idempotencyStore ?? createMemoryIdempotencyStore();
  const payments = options.payments ?? createMemoryPaymentStore();
  assertStore(idempotency, IDEMPOTENCY_STORE_METHODS, 'createSessionHandler: the idempotency store (it must claim keys atomically)');
  assertStore(payments, PAYMENT_STORE_METHODS, 'createSessionHandler: the payments store');
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadlineMs = options.attemptTimeoutMs ?? 2 * timeoutMs;
  const clientAddress = options.clientAddress ?? adapterClientAddress;
  const requireKey = options.requireIdempotencyKey ?? true;
  const cors = createCorsPolicy(options.allowedOrigins, METHODS, { allowedHeaders: options.allowedHeaders });
  const gateway =
    options.gateway ??
    createGateway({ baseUrl: options.baseUrl!, publicKey: options.publicKey!, accessToken: options.accessToken!, timeoutMs, fetch: options.fetch });
  const redactor = createRedactor([gateway.publicKey, ...(typeof options.accessToken === 'string' ? [options.accessToken] : [])]);
  const emit = createEmitter(options.onEvent);
  const replies = createSessionReplies(emit, redactor.text);
  const context: PaymentContext = {
    order: options.order,
    beforeInitiate: options.beforeInitiate,
    payments,
    statusTokens:
      options.statusSecret === undefined
        ? undefined
        : createStatusTokens(options.statusSecret, { ttlMs: options.statusTokenTtlMs, who: 'createSessionHandler' }),
    gateway,
    redactor,
    emit,
  };
  const idempotent = createIdempotentAttempt({
    store: idempotency,
    lockWaitMs: Math.min(timeoutMs, deadlineMs / 2),
    // A crashed instance's claim lapses once no attempt can still be running.
    claimTtlMs: deadlineMs + 60_000,
    doneTtlMs: options.idempotencyTtlMs ?? 24 * 60 * 60 * 1000,
    pendingTtlMs: options.pendingTtlMs ?? 10 * 60 * 1000,
  });

  async function handle(request: Request, env: unknown): Promise<Reply> {
    const started = performance.now();
    const problem = requireMethod(request, METHODS) ?? requireJson(request);
    if (problem) return replies.reject(problem.code, problem.message, { headers: problem.headers });
    const key = request.headers.get('idempotency-key');
    if (key === null && requireKey) {
      return replies.reject('missing_idempotency_key', 'Send an Idempotency-Key header with the request.', {
        fields: { 'Idempotency-Key': 'Send a new random key per payment attempt, such as a UUID, and reuse it on retries.' },
      });
    }
    if (key !== null && !isValidIdempotencyKey(key)) {
      return replies.reject('invalid_idempotency_key', 'The Idempotency-Key header is malformed.', {
        fields: { 'Idempotency-Key': 'Use 8 to 255 visible ASCII characters, such as a UUID.' },
      });
    }
    const body = await readJsonBody(request, { maxBytes: maxBodyBytes, timeoutMs: deadlineMs });
    if (!body.ok) return replies.reject(body.problem.code, body.problem.message);
    const json = body.json;
    const check = validateSessionRequest(json);
    if (!check.ok) return replies.reject('validation', 'Some fields are missing or invalid.', { fields: check.fields });

    const { email, mobileNumber, fullName } = check.request;
    const customer = [email, mobileNumber, mobileNumber.replace(/^\+/, ''), fullName];
    const redact = redactor.withExtra(customer);
    const forRequest = createSessionReplies(emit, redact);
    const steps = paymentSteps(context, check.request, request, clientAddress(request, env), key, forRequest, redact);
    // The rest of the request's one deadline, whatever the body took.
    const left = Math.max(1, deadlineMs - (performance.now() - started));
    return withAttemptDeadline(left, forRequest, async (progress) => {
      if (key === null) return attemptWithoutKey(steps, progress);
      const refused = await steps.admit(progress);
      return refused ?? idempotent(key, JSON.stringify(check.request), steps, forRequest, progress);
    });
  }

  return corsEndpoint(cors, handle, {
    crashed: (error) => replies.internal('handler', error),
    refused: (reply) => emit({ type: 'rejected', status: reply.status, code: 'origin_not_allowed' }),
  });
}

function assertOptions(options: SessionHandlerOptions): void {
  if (!options?.order) throw new TypeError('createSessionHandler: missing option(s) order');
  if (options.gateway !== undefined) {
    const given = (['baseUrl', 'publicKey', 'accessToken', 'fetch'] as const).filter((name) => options[name] !== undefined);
    if (given.length > 0) throw new TypeError(`createSessionHandler: give either gateway or ${given.join(', ')}, not both`);
    if (typeof options.gateway?.initiate !== 'function' || typeof options.gateway.publicKey !== 'string') {
      throw new TypeError('createSessionHandler: gateway must be a createGateway(…) object');
    }
  } else {
    const missing = (['baseUrl', 'publicKey', 'accessToken'] as const).filter((name) => !options[name]);
    if (missing.length > 0) throw new TypeError(`createSessionHandler: missing option(s) ${missing.join(', ')} (or give gateway)`);
    try {
      new URL(options.baseUrl!);
    } catch {
      throw new TypeError('createSessionHandler: baseUrl is not an absolute URL');
    }
  }
  for (const name of ['beforeInitiate', 'clientAddress'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new TypeError(`createSessionHandler: ${name} must be a function`);
    }
  }
  for (const name of ['maxBodyBytes', 'timeoutMs', 'attemptTimeoutMs', 'idempotencyTtlMs', 'pendingTtlMs', 'statusTokenTtlMs'] as const) {
    const value = options[name];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
      throw new TypeError(`createSessionHandler: ${name} must be a positive finite number`);
    }
  }
}

export type SessionRequestCheck = { ok: true; request: SessionRequest } | { ok: false; fields: FieldErrors };

const FIELD_MESSAGES: Record<string, string> = {
  paymentType: `Choose one of ${PAYMENT_TYPES.join(', ')}.`,
  fullName: 'Enter a full name of 2 to 100 characters.',
  email: 'Enter a valid e-mail address.',
  mobileNumber: 'Enter a mobile number of 7 to 15 digits, optionally starting with +.',
  bankCode: 'Choose a bank (a code of 3 to 6 digits).',
  amount: 'Enter an amount such as 1500 or 1500.50.',
  currency: 'Use a three-letter currency code such as NGN.',
  country: 'Use a two-letter country code such as NG.',
  paymentReference: 'Use up to 64 letters, digits, or . _ : - for the payment reference.',
};

/**
 * Checks a parsed JSON body against the session-endpoint contract and names every bad field.
 * A `bankCode` sent with TRANSFER is dropped by the TRANSFER schema, so it can never be forwarded.
 */
function validateSessionRequest(body: unknown): SessionRequestCheck {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, fields: { body: 'Send a JSON object.' } };
  }
  const paymentType = (body as { paymentType?: unknown }).paymentType;
  if (!isPaymentType(paymentType)) return { ok: false, fields: { paymentType: FIELD_MESSAGES.paymentType! } };

  const schema = paymentType === 'USSD' ? ussdSessionRequestSchema : transferSessionRequestSchema;
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, request: parsed.data };

  const fields: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'body');
    const missing = (body as Record<string, unknown>)[field] === undefined;
    fields[field] ??= missing ? 'This field is required.' : (FIELD_MESSAGES[field] ?? issue.message);
  }
  return { ok: false, fields };
}

function isPaymentType(value: unknown): value is PaymentType {
  return (PAYMENT_TYPES as readonly unknown[]).includes(value);
}

/**
 * Finds the client's address. `env` is the handler's second argument, whatever the adapter passes:
 * the default reads `env.incoming.socket.remoteAddress` (@hono/node-server's `getRequestListener` and
 * `serve`) and `env.remoteAddr.hostname` (`Deno.serve`). Behind a proxy, pass your own that reads
 * the header your proxy sets (and only that proxy can set).
 */
export type ClientAddress = (request: Request, env: unknown) => string | undefined;

const adapterClientAddress: ClientAddress = (_request, env) => {
  const given = env as { incoming?: { socket?: { remoteAddress?: unknown } }; remoteAddr?: { hostname?: unknown } } | undefined;
  const address = given?.incoming?.socket?.remoteAddress ?? given?.remoteAddr?.hostname;
  return typeof address === 'string' ? address : undefined;
};

/**
 * What `onEvent` receives: enough to log and alert on. Never the access token or the public key;
 * the customer's e-mail, mobile number and full name are redacted from every `detail`, wherever a
 * gateway or an order resolver quoted them.
 */
export type SessionEvent =
  | { type: 'rejected'; status: number; code: string; fields?: FieldErrors }
  | {
      type: 'gateway';
      outcome: GatewayOutcome['kind'];
      paymentType: PaymentType;
      paymentReference: string;
      amount: string;
      currency: string;
      durationMs: number;
      httpStatus?: number;
      /** The gateway's message, or the network error code (`ECONNREFUSED`, …). */
      detail?: string;
    }
  | { type: 'replayed'; idempotencyKey: string; status: number }
  | { type: 'rate-limited'; retryAfterSeconds: number }
  | { type: 'initiated'; paymentReference: string; paymentType: PaymentType; amount: string; currency: string }
  | {
      type: 'internal-error';
      /**
       * `deadline`: the attempt as a whole ran past `attemptTimeoutMs`; `detail` says where it was.
       * `config`: the order's callbackUrl or redirectUrl is not https: (nothing was forwarded).
       * `ledger`: recording an initiated payment failed (the customer still got the instructions).
       */
      where: 'order' | 'config' | 'token' | 'store' | 'ledger' | 'beforeInitiate' | 'handler' | 'deadline';
      detail: string;
    };

export type SessionEventListener = (event: SessionEvent) => void | Promise<void>;
