import type { SessionRequest } from '../schemas.js';
import { createCorsPolicy, type AllowedOrigins } from './cors.js';
import { corsEndpoint } from './endpoint.js';
import type { ErrorCode, FieldErrors } from './errors.js';
import { createGatewayClient } from './gateway-client.js';
import { replyForOutcome, type GatewayReply } from './gateway-replies.js';
import { buildGatewayRequest } from './gateway-request.js';
import {
  createMemoryIdempotencyStore,
  isValidIdempotencyKey,
  type IdempotencyRecord,
  type IdempotencyStore,
} from './idempotency.js';
import { checkOrder, OrderError, type OrderResolver, type ResolvedOrder } from './order.js';
import { readBodyText } from './read-body.js';
import { createRedactor } from './redact.js';
import { errorReply, type Reply } from './reply.js';
import { createEmitter, type SessionEvent, type SessionEventListener } from './session-events.js';
import { validateSessionRequest } from './validate-session-request.js';

export type AccessToken = string | (() => string | Promise<string>);

export type SessionHandlerOptions = {
  /** The gateway's base URL; the handler posts to `{baseUrl}/api/v2/payments/initiates`. */
  baseUrl: string;
  /** The merchant's public key, sent in the gateway request body. */
  publicKey: string;
  /** The bearer token, or a function returning it, called per gateway request (for rotating tokens). */
  accessToken: AccessToken;
  /** Decides amount, currency, country, paymentReference and URLs on the server. */
  order: OrderResolver;
  /**
   * Browser origins allowed besides the endpoint's own, or `'*'`. Requests without an `Origin`
   * header (server to server) are always allowed. Default: same origin only.
   */
  allowedOrigins?: AllowedOrigins;
  /** How long to wait for the gateway, body included; default 15 000 ms. */
  timeoutMs?: number;
  /** Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Logging hook; never sees the token, the public key or customer details. */
  onEvent?: SessionEventListener;
  /** Default: an in-memory store, 24 h time to live, 10 000 entries. */
  idempotencyStore?: IdempotencyStore;
  /** Largest accepted request body; default 16 KiB. */
  maxBodyBytes?: number;
};

export type SessionHandler = (request: Request) => Promise<Response>;

const METHODS = 'POST, OPTIONS';
const GENERIC_FAILURE = 'Something went wrong on our side. Please try again.';
const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

type Outcome = { fingerprint: string; reply: Reply };
type OrderResult = { ok: true; order: ResolvedOrder } | { ok: false; reply: Reply };

/**
 * The merchant's session endpoint: validates the widget's request, resolves the order on the
 * server, calls the gateway with the secret, and answers with the gateway's envelope or a JSON
 * error of the session-endpoint contract. A Fetch-API handler for Node (through an adapter),
 * Deno, Bun, edge workers and framework route handlers.
 */
export function createSessionHandler(options: SessionHandlerOptions): SessionHandler {
  assertOptions(options);
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024;
  const store = options.idempotencyStore ?? createMemoryIdempotencyStore();
  const cors = createCorsPolicy(options.allowedOrigins, METHODS);
  const redactor = createRedactor([options.publicKey, ...(typeof options.accessToken === 'string' ? [options.accessToken] : [])]);
  const emit = createEmitter(options.onEvent);
  const callGateway = createGatewayClient({
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs ?? 15_000,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  });
  const inFlight = new Map<string, Promise<Outcome>>();

  function reject(code: ErrorCode, message: string, fields?: FieldErrors, headers?: Record<string, string>): Reply {
    const reply = errorReply(code, message, fields, headers);
    emit(fields ? { type: 'rejected', status: reply.status, code, fields } : { type: 'rejected', status: reply.status, code });
    return reply;
  }

  function internal(where: Extract<SessionEvent, { type: 'internal-error' }>['where'], error: unknown): Reply {
    const name = error instanceof Error ? error.name : typeof error;
    // A token source's own error may quote the token before the redactor has ever seen it.
    const detail = where === 'token' || !(error instanceof Error) ? name : `${name}: ${error.message}`;
    emit({ type: 'internal-error', where, detail: redactor.text(detail) });
    return errorReply('internal', GENERIC_FAILURE);
  }

  async function handle(request: Request): Promise<Reply> {
    if (request.method !== 'POST') {
      return reject('method_not_allowed', 'Use POST.', undefined, { allow: METHODS });
    }
    if (!JSON_CONTENT_TYPE.test(request.headers.get('content-type') ?? '')) {
      return reject('unsupported_media_type', 'Send the body as application/json.');
    }
    const key = request.headers.get('idempotency-key');
    if (key !== null && !isValidIdempotencyKey(key)) {
      return reject('invalid_idempotency_key', 'The Idempotency-Key header is malformed.', {
        'Idempotency-Key': 'Use 8 to 255 visible ASCII characters, such as a UUID.',
      });
    }
    const body = await readBodyText(request, maxBodyBytes);
    if (!body.ok) {
      return body.reason === 'too-large'
        ? reject('payload_too_large', `The body is larger than ${maxBodyBytes} bytes.`)
        : reject('invalid_json', 'The body could not be read.');
    }
    let json: unknown;
    try {
      json = JSON.parse(body.text);
    } catch {
      return reject('invalid_json', 'The body is not valid JSON.');
    }
    const check = validateSessionRequest(json);
    if (!check.ok) return reject('validation', 'Some fields are missing or invalid.', check.fields);

    if (key === null) {
      const order = await resolveOrder(check.request, request);
      return order.ok ? (await initiate(check.request, order.order)).reply : order.reply;
    }
    return handleOnce(key, JSON.stringify(check.request), check.request, request);
  }

  async function handleOnce(key: string, fingerprint: string, sessionRequest: SessionRequest, request: Request) {
    const running = inFlight.get(key);
    if (running) {
      const first = await running;
      return first.fingerprint === fingerprint ? replayed(key, first.reply) : keyReused();
    }
    const attempt = attemptOnce(key, fingerprint, sessionRequest, request);
    inFlight.set(key, attempt);
    try {
      return (await attempt).reply;
    } finally {
      inFlight.delete(key);
    }
  }

  async function attemptOnce(
    key: string,
    fingerprint: string,
    sessionRequest: SessionRequest,
    request: Request,
  ): Promise<Outcome> {
    const outcome = (reply: Reply): Outcome => ({ fingerprint, reply });
    let record: IdempotencyRecord | undefined;
    try {
      record = await store.get(key);
    } catch (error) {
      return outcome(internal('store', error));
    }
    if (record && record.fingerprint !== fingerprint) return outcome(keyReused());
    if (record?.state === 'done') return outcome(replayed(key, record.reply));

    if (store.reserve && !(await store.reserve(key))) {
      return outcome(reject('idempotency_key_in_use', 'A request with this Idempotency-Key is in progress.', undefined, { 'retry-after': '1' }));
    }
    try {
      let order = record?.order;
      if (!order) {
        const resolved = await resolveOrder(sessionRequest, request);
        if (!resolved.ok) return outcome(resolved.reply);
        order = resolved.order;
        await store.set(key, { state: 'pending', fingerprint, order });
      }
      const result = await initiate(sessionRequest, order);
      if (result.definitive) {
        const { status, body } = result.reply;
        await store.set(key, { state: 'done', fingerprint, order, reply: { status, body } });
      }
      return outcome(result.reply);
    } finally {
      await store.release?.(key);
    }
  }

  function replayed(key: string, reply: Reply): Reply {
    emit({ type: 'replayed', idempotencyKey: key, status: reply.status });
    return { status: reply.status, body: reply.body, headers: { 'idempotent-replayed': 'true' } };
  }

  function keyReused(): Reply {
    return reject(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request. Use a new key for a new payment.',
    );
  }

  async function resolveOrder(sessionRequest: SessionRequest, request: Request): Promise<OrderResult> {
    let value: unknown;
    try {
      value = await options.order(sessionRequest, { request });
    } catch (error) {
      if (!(error instanceof OrderError)) return { ok: false, reply: internal('order', error) };
      const reply = errorReply('order_refused', redactor.text(error.message), error.fields);
      reply.status = error.status;
      emit({ type: 'rejected', status: reply.status, code: 'order_refused', ...(error.fields ? { fields: error.fields } : {}) });
      return { ok: false, reply };
    }
    const checked = checkOrder(value, () => `pw-${crypto.randomUUID()}`);
    if (checked.ok) return checked;
    return { ok: false, reply: internal('order', new TypeError(`invalid order field(s): ${checked.badFields.join(', ')}`)) };
  }

  async function initiate(sessionRequest: SessionRequest, order: ResolvedOrder): Promise<GatewayReply> {
    let token: string;
    try {
      token = typeof options.accessToken === 'string' ? options.accessToken : await options.accessToken();
      if (typeof token !== 'string' || token === '') throw new TypeError('accessToken gave no token');
      redactor.add(token);
    } catch (error) {
      return { reply: internal('token', error), definitive: false };
    }
    const started = performance.now();
    const outcome = await callGateway(buildGatewayRequest(sessionRequest, order, options.publicKey), token);
    const detail =
      outcome.kind === 'unreachable' ? outcome.reason : 'message' in outcome ? outcome.message : undefined;
    emit({
      type: 'gateway',
      outcome: outcome.kind,
      paymentType: sessionRequest.paymentType,
      paymentReference: order.paymentReference,
      amount: order.amount,
      currency: order.currency,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      ...('httpStatus' in outcome ? { httpStatus: outcome.httpStatus } : {}),
      ...(detail ? { detail: redactor.text(detail) } : {}),
    });
    return replyForOutcome(outcome, redactor.text);
  }

  return corsEndpoint(cors, handle, {
    crashed: (error) => internal('handler', error),
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
}
