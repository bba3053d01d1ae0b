/**
 * One payment attempt for one validated request: the steps (beforeInitiate → order → initiate →
 * record in the ledger), the request's one deadline, the Idempotency-Key claim that runs them at most
 * once per key, and the replies they give (the gateway's outcomes in the customer's words).
 */
import type { SessionRequest } from '../schemas.js';
import {
  buildGatewayRequest,
  redactEnvelope,
  type Gateway,
  type GatewayOutcome,
  type TokenFailure,
} from './gateway.js';
import { sleep, withDeadline, type AbortFlag } from './http/deadline.js';
import { errorName } from './http/emitter.js';
import type { Redactor } from './http/redact.js';
import { errorReply, jsonReply, type ErrorCode, type FieldErrors, type Reply } from './http/reply.js';
import {
  checkOrder,
  OrderError,
  randomReference,
  RateLimitError,
  referenceForKey,
  unsafeOrderUrls,
  type BeforeInitiate,
  type Order,
  type OrderResolver,
  type ResolvedOrder,
} from './order.js';
import type { SessionEvent } from './session.js';
import type { StatusTokens } from './status/tokens.js';
import type { IdempotencyRecord, IdempotencyStore, PaymentStore } from './stores.js';

export type AttemptStage = 'admit' | 'duplicate' | 'lock' | 'store' | 'order' | 'gateway' | 'ledger';

/** One request's progress, shared with the deadline that watches it. */
export type AttemptProgress = {
  /** Aborts when the deadline passed: nothing may reach the gateway after that. */
  readonly signal: AbortFlag;
  stage: AttemptStage;
  /** The gateway's answer once it came: past the deadline, it is still the answer. */
  answer?: Reply;
};

export type OrderResult = { ok: true; order: ResolvedOrder } | { ok: false; reply: Reply };

/** What one payment attempt does for one request; the idempotency layer decides whether and when. */
export type PaymentSteps = {
  /** `beforeInitiate`: undefined to go on, or the refusal. */
  admit(progress: AttemptProgress): Promise<Reply | undefined>;
  resolveOrder(progress: AttemptProgress): Promise<OrderResult>;
  initiate(order: ResolvedOrder, progress: AttemptProgress): Promise<GatewayReply>;
};

export type PaymentContext = {
  order: OrderResolver;
  beforeInitiate: BeforeInitiate | undefined;
  payments: PaymentStore;
  /** Absent without `statusSecret`: the success body's `order` then has no `statusToken`. */
  statusTokens: StatusTokens | undefined;
  /** Its token (made, cached, renewed) and the initiation; the request carries its `publicKey`. */
  gateway: Pick<Gateway, 'initiate' | 'publicKey'>;
  redactor: Redactor;
  emit: (event: SessionEvent) => void;
};

/** The answer given in place of an attempt the deadline abandoned; nobody receives it. */
const ABANDONED_REPLY = errorReply('gateway_timeout', 'Abandoned.');
const ABANDONED: GatewayReply = { reply: ABANDONED_REPLY };

const STAGE_WORDS: Record<AttemptStage, string> = {
  admit: 'waiting for beforeInitiate',
  duplicate: 'waiting for the first request with the same Idempotency-Key',
  lock: 'waiting for another attempt with the same Idempotency-Key',
  store: 'waiting for the idempotency store',
  order: 'waiting for the order resolver',
  gateway: 'waiting for the gateway (its token, then the initiation)',
  ledger: 'waiting for the payment ledger',
};

/**
 * The steps for one validated request. `key` is its Idempotency-Key: the default paymentReference
 * is derived from it. `redact` also removes this request's customer details, for `onEvent`.
 */
export function paymentSteps(
  context: PaymentContext,
  sessionRequest: SessionRequest,
  request: Request,
  clientAddress: string | undefined,
  key: string | null,
  replies: SessionReplies,
  redact: (text: string) => string,
): PaymentSteps {
  return {
    async admit(progress) {
      if (!context.beforeInitiate) return undefined;
      progress.stage = 'admit';
      try {
        await context.beforeInitiate({ request, body: sessionRequest, clientAddress });
        return undefined;
      } catch (error) {
        if (RateLimitError.is(error)) {
          const seconds = error.retryAfterSeconds;
          context.emit({ type: 'rate-limited', retryAfterSeconds: seconds });
          return replies.reject('rate_limited', `Too many payment attempts. Please try again in ${seconds} s.`, {
            headers: { 'retry-after': String(seconds) },
          });
        }
        if (OrderError.is(error)) return orderRefused(error);
        return replies.internal('beforeInitiate', error);
      }
    },

    async resolveOrder(progress) {
      progress.stage = 'order';
      let value: unknown;
      try {
        value = await context.order(sessionRequest, { request });
      } catch (error) {
        if (!OrderError.is(error)) return { ok: false, reply: replies.internal('order', error) };
        return { ok: false, reply: orderRefused(error) };
      }
      const given = typeof value === 'object' && value !== null ? (value as Partial<Order>).paymentReference : null;
      // Hashed only when the resolver gave no reference, once per attempt; synchronous in Node.
      let fallback: string | undefined;
      if (given === undefined && key !== null) {
        const reference = referenceForKey(key);
        fallback = typeof reference === 'string' ? reference : await reference;
      }
      const checked = checkOrder(value, () => fallback ?? randomReference());
      if (!checked.ok) {
        const problem = new TypeError(`invalid order field(s): ${checked.badFields.join(', ')}`);
        return { ok: false, reply: replies.internal('order', problem) };
      }
      const unsafe = unsafeOrderUrls(checked.order);
      if (unsafe.length > 0) {
        const problem = new TypeError(`${unsafe.join(' and ')} must be https: (http: only on localhost); nothing was forwarded`);
        replies.report('config', problem);
        return { ok: false, reply: errorReply('config', NOT_SET_UP) };
      }
      return checked;
    },

    async initiate(order, progress) {
      if (progress.signal.aborted) return ABANDONED;
      progress.stage = 'gateway';
      const started = performance.now();
      const gatewayRequest = buildGatewayRequest(sessionRequest, order, context.gateway.publicKey);
      // Past the deadline the gateway call is ended early, as a time-out.
      const outcome = await context.gateway.initiate(gatewayRequest, { signal: progress.signal.signal });
      if (outcome.kind === 'token-failed') return tokenFailed(outcome);
      const detail = outcomeDetail(outcome, redact);
      context.emit({
        type: 'gateway',
        outcome: outcome.kind,
        paymentType: sessionRequest.paymentType,
        paymentReference: order.paymentReference,
        amount: order.amount,
        currency: order.currency,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        ...('httpStatus' in outcome ? { httpStatus: outcome.httpStatus } : {}),
        ...(detail ? { detail } : {}),
      });
      const summary: OrderSummary = { paymentReference: order.paymentReference, amount: order.amount, currency: order.currency };
      if (outcome.kind === 'success' && context.statusTokens) {
        summary.statusToken = await context.statusTokens.sign(order.paymentReference);
      }
      const result = replyForOutcome(outcome, context.redactor.text, summary);
      progress.answer = result.reply;
      // A duplicate reference says a payment with it exists, not what became of it: it is recorded
      // PENDING when the ledger lacks it (an entry it has is left alone), and the query decides.
      if (outcome.kind === 'success' || outcome.kind === 'duplicate-reference') await record(order, progress, outcome.kind === 'success');
      return result;
    },
  };

  /** Only the reason and status reach `onEvent`: the token itself is never reported; a `repeated` refusal was already. */
  function tokenFailed(failure: TokenFailure): GatewayReply {
    const status = failure.httpStatus === undefined ? '' : ` (HTTP ${failure.httpStatus})`;
    if (!failure.repeated) context.emit({ type: 'internal-error', where: 'token', detail: `no token: ${failure.reason}${status}` });
    return replyForTokenFailure(failure);
  }

  /** The message and fields reach the customer, so they are cleaned of secrets like everything else. */
  function orderRefused(error: OrderError): Reply {
    const clean = context.redactor.text;
    const fields = error.fields
      ? Object.fromEntries(Object.entries(error.fields).map(([field, message]) => [clean(field), clean(String(message))]))
      : undefined;
    return replies.reject('order_refused', clean(error.message), { fields, status: error.status });
  }

  /**
   * The ledger's entry for a payment the gateway has (`initiated`: it accepted it just now; else it
   * already had one with this reference); a failure here cannot unmake the payment.
   */
  async function record(order: ResolvedOrder, progress: AttemptProgress, initiated: boolean): Promise<void> {
    progress.stage = 'ledger';
    const time = Date.now();
    const { paymentReference, amount, currency } = order;
    const { paymentType } = sessionRequest;
    try {
      await context.payments.insert({
        paymentReference,
        paymentType,
        amount,
        currency,
        state: 'PENDING',
        version: 1,
        createdAt: time,
        updatedAt: time,
      });
      if (initiated) context.emit({ type: 'initiated', paymentReference, paymentType, amount, currency });
    } catch (error) {
      replies.report('ledger', error);
    }
  }
}

/**
 * Runs `work` under one deadline of `ms`. When it passes first, the answer is the gateway's if it
 * came (a store still writing cannot turn a made payment into an error), else 504 `gateway_timeout`
 * (409 `idempotency_key_in_use` while waiting for another attempt), and `onEvent` hears where it hung.
 */
export function withAttemptDeadline(
  ms: number,
  replies: SessionReplies,
  work: (progress: AttemptProgress) => Promise<Reply>,
): Promise<Reply> {
  let progress: AttemptProgress | undefined;
  return withDeadline(
    ms,
    (signal) => work((progress = { signal, stage: 'store' })),
    () => deadlineReply(progress!, ms, replies),
  );
}

function deadlineReply(progress: AttemptProgress, ms: number, replies: SessionReplies): Reply {
  if (progress.answer) return progress.answer;
  replies.report('deadline', new Error(`no answer within ${ms} ms, ${STAGE_WORDS[progress.stage]}`));
  if (progress.stage === 'lock') return inUse(replies);
  return TIMED_OUT;
}

const TIMED_OUT = errorReply('gateway_timeout', 'The payment could not be started in time. Please try again.');

/** What a request's caller got when its deadline passed (its duplicates get the same), without reporting it again. */
function answerAtDeadline(progress: AttemptProgress): Reply {
  return progress.answer ?? (progress.stage === 'lock' ? IN_USE : TIMED_OUT);
}

const IN_USE_MESSAGE = 'A request with this Idempotency-Key is in progress.';
const IN_USE = errorReply('idempotency_key_in_use', IN_USE_MESSAGE, { headers: { 'retry-after': '1' } });

function inUse(replies: SessionReplies): Reply {
  return replies.reject('idempotency_key_in_use', IN_USE_MESSAGE, {
    headers: { 'retry-after': '1' },
  });
}

/** A request without an Idempotency-Key (`requireIdempotencyKey: false`): no store, no replay. */
export async function attemptWithoutKey(steps: PaymentSteps, progress: AttemptProgress): Promise<Reply> {
  const refused = await steps.admit(progress);
  if (refused) return refused;
  const resolved = await steps.resolveOrder(progress);
  if (!resolved.ok) return resolved.reply;
  return (await steps.initiate(resolved.order, progress)).reply;
}

export type IdempotentAttemptOptions = {
  store: IdempotencyStore;
  /** How long to wait for another attempt's claim on a key before answering 409. */
  lockWaitMs: number;
  /** How long a claim lasts if it is never released (a crashed instance): longer than any attempt. */
  claimTtlMs: number;
  /** How long a definitive answer is replayed. */
  doneTtlMs: number;
  /** How long the order of an attempt without a definitive answer is kept for its retry. */
  pendingTtlMs: number;
};

/**
 * Runs a payment attempt at most once per `Idempotency-Key` and answers its duplicates, within the
 * request's deadline (`progress`). `fingerprint` is the validated request: a key reused with
 * another one is refused.
 */
export type IdempotentAttempt = (
  key: string,
  fingerprint: string,
  steps: PaymentSteps,
  replies: SessionReplies,
  progress: AttemptProgress,
) => Promise<Reply>;

type Claim = { record: IdempotencyRecord | undefined; release: () => void } | { reply: Reply };

const FIRST_PAUSE_MS = 20;
const LONGEST_PAUSE_MS = 250;
const STORE_DOWN = 'Payments cannot be started right now. Please try again in a moment.';

/**
 * In this process, a duplicate waits for the first attempt and shares its answer. Across processes
 * (or handlers) sharing a store, the store's atomic claim is taken before the record is read, so two
 * instances cannot both find no record and both pay; an instance that finds the key claimed reads
 * the record again at growing intervals and replays the answer once it is stored.
 *
 * Nothing is stored before the gateway was asked, so requests that never reach it (refused orders,
 * rate limits, deadlines, a store that is down) cannot fill the store.
 */
export function createIdempotentAttempt(options: IdempotentAttemptOptions): IdempotentAttempt {
  const { store, lockWaitMs, claimTtlMs, doneTtlMs, pendingTtlMs } = options;
  const inFlight = new Map<string, Promise<{ fingerprint: string; reply: Reply }>>();

  return async (key, fingerprint, steps, replies, progress) => {
    const running = inFlight.get(key);
    if (running) {
      progress.stage = 'duplicate';
      const first = await running;
      return first.fingerprint === fingerprint ? replies.replayed(key, first.reply) : replies.keyReused();
    }
    // Settles by the first request's deadline, with what its caller got then: a hung resolver or
    // store cannot hold its duplicates, nor the key, beyond it.
    const attempt = new Promise<{ fingerprint: string; reply: Reply }>((resolve) => {
      progress.signal.onAbort(() => resolve({ fingerprint, reply: answerAtDeadline(progress) }));
      attemptOnce(key, fingerprint, steps, replies, progress).then((reply) => resolve({ fingerprint, reply }));
    });
    inFlight.set(key, attempt);
    try {
      return (await attempt).reply;
    } finally {
      inFlight.delete(key);
    }
  };

  async function attemptOnce(
    key: string,
    fingerprint: string,
    steps: PaymentSteps,
    replies: SessionReplies,
    progress: AttemptProgress,
  ): Promise<Reply> {
    const claim = await claimKey(key, fingerprint, replies, progress);
    if ('reply' in claim) return claim.reply;
    const { record, release } = claim;
    // Abandoned by the deadline before the gateway was asked: the key is free for the retry at once.
    // Once it is being asked, the claim is kept until its outcome is stored.
    progress.signal.onAbort(() => progress.stage === 'gateway' || progress.answer || release());
    try {
      if (progress.signal.aborted) return ABANDONED_REPLY;
      let order = record?.order;
      if (!order) {
        const resolved = await steps.resolveOrder(progress);
        if (!resolved.ok) return resolved.reply;
        order = resolved.order;
      }
      if (progress.signal.aborted) return ABANDONED_REPLY;
      const result = await steps.initiate(order, progress);
      if (result.keep) {
        progress.stage = 'store';
        const { status, body } = result.reply;
        const outcome: IdempotencyRecord =
          result.keep === 'done'
            ? { state: 'done', fingerprint, order, reply: { status, body } }
            : { state: 'pending', fingerprint, order };
        try {
          await store.set(key, outcome, result.keep === 'done' ? doneTtlMs : pendingTtlMs);
        } catch (error) {
          // The customer still gets the gateway's answer. A retry finds the claim free and no record:
          // it resolves the order again, and a resolver that derives the reference from the key (the
          // default) names the same payment.
          replies.report('store', error);
        }
      }
      return result.reply;
    } finally {
      release();
    }
  }

  /** Takes the key's claim, then reads its record; while another attempt holds it, waits and reads again. */
  async function claimKey(key: string, fingerprint: string, replies: SessionReplies, progress: AttemptProgress): Promise<Claim> {
    const waitUntil = Date.now() + lockWaitMs;
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
      progress.stage = 'store';
      let claimed: boolean;
      let record: IdempotencyRecord | undefined;
      try {
        claimed = await store.claim(key, claimTtlMs);
      } catch (error) {
        return { reply: storeDown(replies, error) };
      }
      const release = claimed ? releaser(key, replies) : () => {};
      try {
        record = await store.get(key);
      } catch (error) {
        release();
        return { reply: storeDown(replies, error) };
      }
      if (record && record.fingerprint !== fingerprint) {
        release();
        return { reply: replies.keyReused() };
      }
      if (record?.state === 'done') {
        release();
        return { reply: replies.replayed(key, record.reply) };
      }
      if (claimed) return { record, release };
      const left = waitUntil - Date.now();
      if (left <= 0 || progress.signal.aborted) return { reply: inUse(replies) };
      progress.stage = 'lock';
      await sleep(Math.min(pause, left), progress.signal);
    }
  }

  /** Releases a claim once, without waiting for it: a store failing there cannot change the answer. */
  function releaser(key: string, replies: SessionReplies): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      try {
        const result = store.release(key);
        if (result) result.then(undefined, (error: unknown) => replies.report('store', error));
      } catch (error) {
        replies.report('store', error);
      }
    };
  }
}

/** The store cannot be read: nothing can be started safely, and nothing was. */
function storeDown(replies: SessionReplies, error: unknown): Reply {
  replies.report('store', error);
  return replies.reject('server_busy', STORE_DOWN, { headers: { 'retry-after': '5' } });
}

const GENERIC_FAILURE = 'Something went wrong on our side. Please try again.';

export type InternalWhere = Extract<SessionEvent, { type: 'internal-error' }>['where'];

export type RejectOptions = {
  fields?: FieldErrors;
  headers?: Record<string, string>;
  /** Overrides the code's usual status (an `OrderError` chooses its own 4xx). */
  status?: number;
};

/** The session endpoint's own answers, each reported to `onEvent` as it is made. */
export type SessionReplies = {
  /** A contract error for something the request or its order cannot have; a `rejected` event. */
  reject(code: ErrorCode, message: string, options?: RejectOptions): Reply;
  /** A 500 with a generic message; the error's name and message, redacted, go to `onEvent` only. */
  internal(where: InternalWhere, error: unknown): Reply;
  /** Reports an internal error that does not change the answer (a store failing after the payment). */
  report(where: InternalWhere, error: unknown): void;
  replayed(key: string, reply: Reply): Reply;
  keyReused(): Reply;
};

/** `redact` removes the secrets, and this request's customer details, from what `onEvent` sees. */
export function createSessionReplies(emit: (event: SessionEvent) => void, redact: (text: string) => string): SessionReplies {
  function report(where: InternalWhere, error: unknown): void {
    const name = errorName(error);
    // A token source's own error may quote the token before the redactor has ever seen it.
    const detail = where === 'token' || !(error instanceof Error) ? name : `${name}: ${error.message}`;
    emit({ type: 'internal-error', where, detail: redact(detail) });
  }

  function reject(code: ErrorCode, message: string, options: RejectOptions = {}): Reply {
    const reply = errorReply(code, message, options);
    if (options.status !== undefined) reply.status = options.status;
    emit({ type: 'rejected', status: reply.status, code, ...(options.fields ? { fields: options.fields } : {}) });
    return reply;
  }

  return {
    reject,
    report,
    internal(where, error) {
      report(where, error);
      return errorReply('internal', GENERIC_FAILURE);
    },
    replayed(key, reply) {
      emit({ type: 'replayed', idempotencyKey: key, status: reply.status });
      return { status: reply.status, body: reply.body, headers: { 'idempotent-replayed': 'true' } };
    },
    keyReused() {
      return reject(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request. Use a new key for a new payment.',
      );
    },
  };
}

/**
 * What the idempotency store keeps of an attempt that reached the gateway: `done`, a definitive
 * answer replayed to every retry (instructions, a decline, a 4xx); `pending`, only the order, after
 * an answer that may hide a half-made payment (time-out, refused connection, 5xx, unreadable), so a
 * retry asks the gateway again with the same paymentReference.
 */
export type Keep = 'done' | 'pending';

/** `keep` is absent when nothing reached the gateway (a token source failing): nothing is stored. */
export type GatewayReply = { reply: Reply; keep?: Keep };

/** The session-endpoint contract's `order`: what the server charges, and the token for `status-url`. */
export type OrderSummary = { paymentReference: string; amount: string; currency: string; statusToken?: string };

/** The longest gateway message passed to `onEvent`, counted after redaction. */
const MAX_MESSAGE_LENGTH = 300;

/**
 * The customer's words for each outcome. The gateway's own text only ever goes to `onEvent`: it may
 * be internal, in another language, or quote what it should not.
 */
const CUSTOMER_MESSAGES = {
  declined: 'The payment was declined. Please try another bank or payment method.',
  refused: 'The payment could not be started with these details. Please check them or choose another payment method.',
  unavailable: 'Payments are unavailable right now. Please try again later.',
  failing: 'The payment gateway is having trouble. Please try again in a moment.',
  unconfirmed: 'The payment gateway did not confirm the payment. Please try again.',
  incomplete: "The payment gateway's answer lacked the payment details. Please try again.",
  unreadable: "The payment gateway's answer could not be read. Please try again.",
  timeout: 'The payment gateway did not answer in time. Please try again.',
  unreachable: 'The payment gateway could not be reached. Please try again in a moment.',
  duplicate: 'This payment was already started. Please check your phone or bank app for it before paying again.',
} as const;

/** For a merchant's misconfiguration: nothing the customer can fix, nothing forwarded. */
const NOT_SET_UP = 'Payments are not set up correctly on this site. Please contact the merchant.';

/** Redacts first, then shortens: a cut made first could leave a secret's prefix for redaction to miss. */
function shortened(message: string, redact: (text: string) => string): string {
  return redact(message).slice(0, MAX_MESSAGE_LENGTH);
}

/** What `onEvent` hears of an outcome: the gateway's message, redacted, or the network error code. */
function outcomeDetail(outcome: GatewayOutcome, redact: (text: string) => string): string | undefined {
  switch (outcome.kind) {
    case 'unreachable':
      return outcome.reason;
    case 'unconfirmed':
      return shortened(outcome.message ? `${outcome.status}: ${outcome.message}` : outcome.status, redact);
    case 'declined':
    case 'http-error':
    case 'missing-fields':
    case 'duplicate-reference':
      return outcome.message ? shortened(outcome.message, redact) : undefined;
    default:
      return undefined;
  }
}

/** A 4xx is the gateway's decision about this request, except "too early / too many": those may pass later. */
function isDefinitiveStatus(httpStatus: number): boolean {
  return httpStatus >= 400 && httpStatus < 500 && httpStatus !== 408 && httpStatus !== 425 && httpStatus !== 429;
}

/** `order` goes into the success body; `redact` cleans the envelope's strings of every secret. */
function replyForOutcome(outcome: GatewayOutcome, redact: (text: string) => string, order: OrderSummary): GatewayReply {
  switch (outcome.kind) {
    case 'success':
      return { reply: jsonReply(200, { ...redactEnvelope(outcome.envelope, redact), order }), keep: 'done' };
    case 'declined':
      return { reply: errorReply('payment_declined', CUSTOMER_MESSAGES.declined), keep: 'done' };
    case 'http-error': {
      const { httpStatus } = outcome;
      const words =
        httpStatus === 401 || httpStatus === 403
          ? CUSTOMER_MESSAGES.unavailable
          : isDefinitiveStatus(httpStatus)
            ? CUSTOMER_MESSAGES.refused
            : CUSTOMER_MESSAGES.failing;
      return { reply: errorReply('gateway_error', words), keep: isDefinitiveStatus(httpStatus) ? 'done' : 'pending' };
    }
    case 'duplicate-reference':
      // Asking again with the same reference gets the same answer; the ledger and the query decide its fate.
      return { reply: errorReply('duplicate_reference', CUSTOMER_MESSAGES.duplicate), keep: 'done' };
    case 'unconfirmed':
      return { reply: errorReply('gateway_error', CUSTOMER_MESSAGES.unconfirmed), keep: 'pending' };
    case 'missing-fields':
      return { reply: errorReply('invalid_gateway_response', CUSTOMER_MESSAGES.incomplete), keep: 'pending' };
    case 'unreadable':
      return { reply: errorReply('invalid_gateway_response', CUSTOMER_MESSAGES.unreadable), keep: 'pending' };
    case 'timeout':
      return { reply: errorReply('gateway_timeout', CUSTOMER_MESSAGES.timeout), keep: 'pending' };
    case 'unreachable':
      return { reply: errorReply('gateway_unreachable', CUSTOMER_MESSAGES.unreachable), keep: 'pending' };
  }
}

/**
 * No token, so no initiation went out (or the gateway refused it with a 401): nothing is kept, and
 * the retry asks afresh. Keys the gateway refuses are the merchant's to fix.
 */
function replyForTokenFailure(failure: TokenFailure): GatewayReply {
  switch (failure.reason) {
    case 'timeout':
      return { reply: errorReply('gateway_timeout', CUSTOMER_MESSAGES.timeout) };
    case 'unreachable':
      return { reply: errorReply('gateway_unreachable', CUSTOMER_MESSAGES.unreachable) };
    case 'source-failed':
      return { reply: errorReply('internal', GENERIC_FAILURE) };
    case 'refused':
    case 'unreadable':
      return { reply: errorReply('config', NOT_SET_UP) };
  }
}
