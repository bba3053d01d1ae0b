// The merchant's session endpoint: the request read top to bottom (method, content type,
// Idempotency-Key, body, validation), then handed to the payment steps under one deadline and,
// with a key, to the idempotency layer.
import { createGateway } from '../gateway/gateway.js';
import { createCorsPolicy } from '../http/cors.js';
import { createEmitter } from '../http/emitter.js';
import { corsEndpoint } from '../http/endpoint.js';
import { createRedactor, gatewayRedactor } from '../http/redact.js';
import type { Reply } from '../http/reply.js';
import { assertStore } from '../options.js';
import { createStatusTokens } from '../status/tokens.js';
import { createMemoryIdempotencyStore, createMemoryPaymentStore } from '../stores/memory.js';
import { warnIfMemoryWithLiveKeys } from '../stores/memory-warning.js';
import { PAYMENT_STORE_METHODS, type PaymentStore } from '../stores/types.js';
import { IDEMPOTENCY_STORE_METHODS, type IdempotencyStore } from '../stores/idempotency-types.js';
import { adapterClientAddress } from './client-address.js';
import { withAttemptDeadline } from './deadline.js';
import { createIdempotentAttempt } from './idempotency.js';
import { checkSessionOptions, transferTerms, type SessionHandlerOptions } from './options.js';
import type { SessionEvent } from './events.js';
import { createSessionReplies } from './replies.js';
import { readSessionRequest } from './request.js';
import { attemptWithoutKey, paymentSteps, type PaymentContext } from './steps.js';
import { withTimeLeft } from './time-left.js';

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
  const now = options.now ?? Date.now;
  const emit = createEmitter(options.onEvent);
  const { idempotency, payments } = sessionStores(options, now, emit);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadlineMs = options.attemptTimeoutMs ?? 2 * timeoutMs;
  const limits = {
    methods: METHODS,
    requireKey: options.requireIdempotencyKey ?? true,
    maxBodyBytes: options.maxBodyBytes ?? 16 * 1024,
    deadlineMs,
  };
  const clientAddress = options.clientAddress ?? adapterClientAddress;
  const cors = createCorsPolicy(options.allowedOrigins, METHODS, { allowedHeaders: options.allowedHeaders });
  const gateway = sessionGateway(options, timeoutMs);
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
  const idempotent = idempotentAttempt(options, idempotency, timeoutMs, deadlineMs);

  async function handle(request: Request, env: unknown): Promise<Reply> {
    const started = performance.now();
    const read = await readSessionRequest(request, limits, replies);
    if (!read.ok) return read.reply;
    const { key, body } = read;
    const { email, mobileNumber, fullName } = body;
    const redact = redactor.withExtra([email, mobileNumber, mobileNumber.replace(/^\+/, ''), fullName]);
    const forRequest = createSessionReplies(emit, redact);
    const steps = paymentSteps({
      context,
      body,
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
      return refused ?? idempotent(key, JSON.stringify(body), steps, forRequest, progress);
    });
  }

  return corsEndpoint(cors, async (request, env) => withTimeLeft(await handle(request, env), transfer.now()), {
    crashed: (error) => replies.internal('handler', error),
    refused: (reply) => emit({ type: 'rejected', status: reply.status, code: 'origin_not_allowed' }),
  });
}

/** The stores given, or memory ones, each checked for the methods the endpoint calls. */
function sessionStores(
  options: SessionHandlerOptions,
  now: () => number,
  emit: (event: SessionEvent) => void,
): { idempotency: IdempotencyStore; payments: PaymentStore } {
  const idempotency = options.idempotency ?? createMemoryIdempotencyStore();
  const payments = options.payments ?? createMemoryPaymentStore({ now, onEvent: emit });
  assertStore(
    idempotency,
    IDEMPOTENCY_STORE_METHODS,
    'createSessionHandler: the idempotency store (it must claim keys atomically)',
  );
  assertStore(payments, PAYMENT_STORE_METHODS, 'createSessionHandler: the payments store');
  return { idempotency, payments };
}

/** The `gateway` given, or one made from `baseUrl`, `publicKey` and `accessToken` (checked by checkSessionOptions). */
function sessionGateway(
  options: SessionHandlerOptions,
  timeoutMs: number,
): NonNullable<SessionHandlerOptions['gateway']> {
  const { baseUrl, publicKey, accessToken, fetch } = options;
  return (
    options.gateway ??
    createGateway({ baseUrl: baseUrl!, publicKey: publicKey!, accessToken: accessToken!, timeoutMs, fetch })
  );
}

/** A keyed attempt run once per key, its claim and records kept as long as the options say. */
function idempotentAttempt(
  options: SessionHandlerOptions,
  store: IdempotencyStore,
  timeoutMs: number,
  deadlineMs: number,
): ReturnType<typeof createIdempotentAttempt> {
  return createIdempotentAttempt({
    store,
    lockWaitMs: Math.min(timeoutMs, deadlineMs / 2),
    // A crashed instance's claim lapses once no attempt can still be running.
    claimTtlMs: deadlineMs + 60_000,
    doneTtlMs: options.idempotencyTtlMs ?? 24 * 60 * 60 * 1000,
    pendingTtlMs: options.pendingTtlMs ?? 10 * 60 * 1000,
  });
}
