import { isJsonContentType } from '../http/json-content-type.js';
import { createCorsPolicy, type AllowedOrigins } from './cors.js';
import { corsEndpoint } from './endpoint.js';
import { createGatewayClient } from './gateway-client.js';
import { createMemoryIdempotencyStore, isValidIdempotencyKey, type IdempotencyStore } from './idempotency.js';
import { createIdempotentAttempt } from './idempotent-attempt.js';
import type { OrderResolver } from './order.js';
import { attemptWithoutKey, paymentSteps, withAttemptDeadline, type PaymentContext } from './payment-steps.js';
import { readBodyText } from './read-body.js';
import { createRedactor } from './redact.js';
import type { Reply } from './reply.js';
import { createEmitter, type SessionEventListener } from './session-events.js';
import { createSessionReplies } from './session-replies.js';
import { validateSessionRequest } from './validate-session-request.js';

export type AccessToken = string | (() => string | Promise<string>);

export type SessionHandlerOptions = {
  /** The gateway's base URL; the handler posts to `{baseUrl}/api/v2/payments/initiates`. */
  baseUrl: string;
  /** The merchant's public key, sent in the gateway request body. */
  publicKey: string;
  /** The bearer token, or a function returning it, called per gateway request (for rotating tokens). */
  accessToken: AccessToken;
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
  /** How long to wait for the gateway, body included; default 15 000 ms. */
  timeoutMs?: number;
  /**
   * One deadline on a whole attempt: the claim on the Idempotency-Key, the order resolver, the token
   * source, the store and the gateway together; default twice `timeoutMs`. Past it the answer is 504
   * `gateway_timeout`, as for a gateway time-out (the widget offers a retry with the same key, which
   * reuses the stored order), unless the gateway had already answered, and `onEvent` receives an
   * `internal-error` with `where: 'deadline'` naming what it was waiting for.
   */
  attemptTimeoutMs?: number;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /**
   * Logging hook. Never sees the token or the public key; the customer's e-mail, mobile number and
   * full name are redacted from every `detail` (a gateway or a resolver may quote them).
   */
  onEvent?: SessionEventListener;
  /**
   * Default: an in-memory store, 24 h time to live, 10 000 entries. Several handlers, in one process
   * or several, may share one store.
   */
  idempotencyStore?: IdempotencyStore;
  /**
   * Default `true`: a request without an `Idempotency-Key` header is answered 400
   * `missing_idempotency_key` (the widget always sends one). `false` lets server-to-server callers
   * that cannot send one through, each such request a new payment.
   */
  requireIdempotencyKey?: boolean;
  /** Largest accepted request body; default 16 KiB. */
  maxBodyBytes?: number;
};

export type SessionHandler = (request: Request) => Promise<Response>;

const METHODS = 'POST, OPTIONS';

/**
 * The merchant's session endpoint: validates the widget's request, resolves the order on the
 * server, calls the gateway with the secret, and answers with the gateway's envelope (the spec's
 * fields only) or a JSON error of the session-endpoint contract. A Fetch-API handler for Node
 * (through an adapter), Deno, Bun, edge workers and framework route handlers.
 */
export function createSessionHandler(options: SessionHandlerOptions): SessionHandler {
  assertOptions(options);
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const deadlineMs = options.attemptTimeoutMs ?? 2 * timeoutMs;
  const requireKey = options.requireIdempotencyKey ?? true;
  const cors = createCorsPolicy(options.allowedOrigins, METHODS, { allowedHeaders: options.allowedHeaders });
  const redactor = createRedactor([options.publicKey, ...(typeof options.accessToken === 'string' ? [options.accessToken] : [])]);
  const emit = createEmitter(options.onEvent);
  const replies = createSessionReplies(emit, redactor.text);
  const context: PaymentContext = {
    order: options.order,
    accessToken: options.accessToken,
    publicKey: options.publicKey,
    callGateway: createGatewayClient({
      baseUrl: options.baseUrl,
      timeoutMs,
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    }),
    redactor,
    emit,
  };
  const idempotent = createIdempotentAttempt({
    store: options.idempotencyStore ?? createMemoryIdempotencyStore(),
    lockWaitMs: Math.min(timeoutMs, deadlineMs / 2),
    deadlineMs,
  });

  async function handle(request: Request): Promise<Reply> {
    if (request.method !== 'POST') {
      return replies.reject('method_not_allowed', 'Use POST.', { headers: { allow: METHODS } });
    }
    if (!isJsonContentType(request.headers.get('content-type'))) {
      return replies.reject('unsupported_media_type', 'Send the body as application/json.');
    }
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
    const body = await readBodyText(request, maxBodyBytes);
    if (!body.ok) {
      return body.reason === 'too-large'
        ? replies.reject('payload_too_large', `The body is larger than ${maxBodyBytes} bytes.`)
        : replies.reject('invalid_json', 'The body could not be read.');
    }
    let json: unknown;
    try {
      json = JSON.parse(body.text);
    } catch {
      return replies.reject('invalid_json', 'The body is not valid JSON.');
    }
    const check = validateSessionRequest(json);
    if (!check.ok) return replies.reject('validation', 'Some fields are missing or invalid.', { fields: check.fields });

    const { email, mobileNumber, fullName } = check.request;
    const customer = [email, mobileNumber, mobileNumber.replace(/^\+/, ''), fullName];
    const redact = redactor.withExtra(customer);
    const forRequest = createSessionReplies(emit, redact);
    const steps = paymentSteps(context, check.request, request, key, forRequest, redact);
    if (key === null) return withAttemptDeadline(deadlineMs, forRequest, (progress) => attemptWithoutKey(steps, progress));
    return idempotent(key, JSON.stringify(check.request), steps, forRequest);
  }

  return corsEndpoint(cors, handle, {
    crashed: (error) => replies.internal('handler', error),
    refused: (reply) => emit({ type: 'rejected', status: reply.status, code: 'origin_not_allowed' }),
  });
}

function assertOptions(options: SessionHandlerOptions): void {
  const missing = (['baseUrl', 'publicKey', 'accessToken', 'order'] as const).filter((name) => !options?.[name]);
  if (missing.length > 0) throw new TypeError(`createSessionHandler: missing option(s) ${missing.join(', ')}`);
  try {
    new URL(options.baseUrl);
  } catch {
    throw new TypeError('createSessionHandler: baseUrl is not an absolute URL');
  }
  for (const name of ['maxBodyBytes', 'timeoutMs', 'attemptTimeoutMs'] as const) {
    const value = options[name];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
      throw new TypeError(`createSessionHandler: ${name} must be a positive finite number`);
    }
  }
}
