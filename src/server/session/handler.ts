// The merchant's session endpoint: the request read top to bottom (method, content type,
// Idempotency-Key, body, validation), then handed to the payment steps under one deadline and,
// with a key, to the idempotency layer.
import { createGateway } from '../gateway/gateway.js';
import { readJsonBody, requireJson, requireMethod } from '../../contract/request-checks.js';
import { createCorsPolicy } from '../http/cors.js';
import { createEmitter } from '../http/emitter.js';
import { corsEndpoint } from '../http/endpoint.js';
import { createRedactor, gatewayRedactor } from '../http/redact.js';
import type { Reply } from '../http/reply.js';
import { assertStore } from '../options.js';
import { createStatusTokens } from '../status/tokens.js';
import { createMemoryIdempotencyStore, createMemoryPaymentStore } from '../stores/memory.js';
import { warnIfMemoryWithLiveKeys } from '../stores/memory-warning.js';
import { PAYMENT_STORE_METHODS } from '../stores/types.js';
import { IDEMPOTENCY_STORE_METHODS, isValidIdempotencyKey } from '../stores/idempotency-types.js';
import { adapterClientAddress } from './client-address.js';
import { withAttemptDeadline } from './deadline.js';
import { createIdempotentAttempt } from './idempotency.js';
import { checkSessionOptions, transferTerms, type SessionHandlerOptions } from './options.js';
import { NOT_SET_UP, sessionError } from './outcomes.js';
import { createSessionReplies, type SessionReplies } from './replies.js';
import { attemptWithoutKey, paymentSteps, type PaymentContext } from './steps.js';
import { withTimeLeft } from './time-left.js';
import { validateSessionRequest } from './validate.js';

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
  checkSessionOptions(options);
  const idempotency = options.idempotency ?? createMemoryIdempotencyStore();
  const now = options.now ?? Date.now;
  const emit = createEmitter(options.onEvent);
  const payments = options.payments ?? createMemoryPaymentStore({ now, onEvent: emit });
  assertStore(
    idempotency,
    IDEMPOTENCY_STORE_METHODS,
    'createSessionHandler: the idempotency store (it must claim keys atomically)',
  );
  assertStore(payments, PAYMENT_STORE_METHODS, 'createSessionHandler: the payments store');
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadlineMs = options.attemptTimeoutMs ?? 2 * timeoutMs;
  const clientAddress = options.clientAddress ?? adapterClientAddress;
  const requireKey = options.requireIdempotencyKey ?? true;
  const cors = createCorsPolicy(options.allowedOrigins, METHODS, { allowedHeaders: options.allowedHeaders });
  const { baseUrl, publicKey, accessToken, fetch } = options;
  const gateway =
    options.gateway ??
    createGateway({ baseUrl: baseUrl!, publicKey: publicKey!, accessToken: accessToken!, timeoutMs, fetch });
  warnIfMemoryWithLiveKeys(gateway, [idempotency, payments]);
  const redactor = createRedactor(
    [gateway.publicKey, ...(typeof options.accessToken === 'string' ? [options.accessToken] : [])],
    gatewayRedactor(gateway),
  );
  const replies = createSessionReplies(emit, redactor.text);
  const { statusSecret, statusTokenTtlMs } = options;
  const statusTokens =
    statusSecret === undefined
      ? undefined
      : createStatusTokens(statusSecret, { ttlMs: statusTokenTtlMs, who: 'createSessionHandler' });
  const transfer = transferTerms(options);
  const { order, beforeInitiate } = options;
  const context: PaymentContext = {
    order,
    beforeInitiate,
    payments,
    statusTokens,
    statusUrl: options.statusUrl,
    gateway,
    redactor,
    emit,
    transfer,
    now,
    warned: { noRateLimit: false },
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
    const badKey = checkIdempotencyKey(key, requireKey, replies);
    if (badKey) return badKey;
    if (request.bodyUsed)
      return bodyAlreadyRead(replies, 'was already read before the session handler got the request');
    const body = await readJsonBody(request, { maxBytes: maxBodyBytes, timeoutMs: deadlineMs });
    if (!body.ok && body.problem.empty && saysItHasBody(request)) {
      return bodyAlreadyRead(replies, 'arrived empty although the request says it has one');
    }
    if (!body.ok) return replies.reject(body.problem.code, body.problem.message);
    const check = validateSessionRequest(body.json);
    if (!check.ok) return replies.reject('validation', 'Some fields are missing or invalid.', { fields: check.fields });

    const { email, mobileNumber, fullName } = check.request;
    const redact = redactor.withExtra([email, mobileNumber, mobileNumber.replace(/^\+/, ''), fullName]);
    const forRequest = createSessionReplies(emit, redact);
    const steps = paymentSteps({
      context,
      body: check.request,
      request,
      clientAddress: () => clientAddress(request, env),
      key,
      replies: forRequest,
      redact,
    });
    // The rest of the request's one deadline, whatever the body took.
    const left = Math.max(1, deadlineMs - (performance.now() - started));
    return withAttemptDeadline(left, forRequest, async (progress) => {
      if (key === null) return attemptWithoutKey(steps, progress);
      const refused = await steps.admit(progress);
      return refused ?? idempotent(key, JSON.stringify(check.request), steps, forRequest, progress);
    });
  }

  return corsEndpoint(cors, async (request, env) => withTimeLeft(await handle(request, env), transfer.now()), {
    crashed: (error) => replies.internal('handler', error),
    refused: (reply) => emit({ type: 'rejected', status: reply.status, code: 'origin_not_allowed' }),
  });
}

/**
 * A body something else read first, such as `express.json()` mounted before the handler: the
 * customer cannot fix it, so it is the merchant's setup error (500 `config`), named in `onEvent`.
 * An empty body is taken for one when the request's headers announce a body (a client that sent
 * none is answered 400 `invalid_json`).
 */
function bodyAlreadyRead(replies: SessionReplies, what: string): Reply {
  const problem = new Error(`the request body ${what}: mount the handler before body parsers (express.json())`);
  problem.name = 'BodyAlreadyRead';
  replies.report('config', problem);
  return sessionError('config', NOT_SET_UP);
}

function saysItHasBody(request: Request): boolean {
  return (
    Number(request.headers.get('content-length')) > 0 || /chunked/i.test(request.headers.get('transfer-encoding') ?? '')
  );
}

/** A missing key (when one is required) or a malformed one, answered before the body is read. */
function checkIdempotencyKey(key: string | null, required: boolean, replies: SessionReplies): Reply | undefined {
  if (key === null && required) {
    return replies.reject('missing_idempotency_key', 'Send an Idempotency-Key header with the request.', {
      fields: {
        'Idempotency-Key': 'Send a new random key per payment attempt, such as a UUID, and reuse it on retries.',
      },
    });
  }
  if (key !== null && !isValidIdempotencyKey(key)) {
    return replies.reject('invalid_idempotency_key', 'The Idempotency-Key header is malformed.', {
      fields: { 'Idempotency-Key': 'Use 8 to 255 visible ASCII characters, such as a UUID.' },
    });
  }
  return undefined;
}
