import type { GatewayRequest, SessionRequest } from '../schemas.js';
import { RateLimitError, type BeforeInitiate } from './before-initiate.js';
import {
  NOT_SET_UP,
  outcomeDetail,
  replyForOutcome,
  replyForTokenFailure,
  type GatewayReply,
  type OrderSummary,
} from './gateway-replies.js';
import { buildGatewayRequest, type Gateway, type InitiateOutcome, type TokenFailure } from './gateway.js';
import { errorReply, withDeadline, type AbortFlag, type Redactor, type Reply } from './http.js';
import {
  checkOrder,
  OrderError,
  randomReference,
  referenceForKey,
  unsafeOrderUrls,
  type Order,
  type OrderResolver,
  type ResolvedOrder,
} from './order.js';
import type { SessionEvent } from './session-events.js';
import type { SessionReplies } from './session-replies.js';
import type { StatusTokens } from './status.js';
import type { PaymentStore } from './stores.js';

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
export const ABANDONED_REPLY = errorReply('gateway_timeout', 'Abandoned.');
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
      const outcome = await initiateUntil(context.gateway, gatewayRequest, progress.signal);
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

  /** Only the reason and status reach `onEvent`: the token itself is never reported. */
  function tokenFailed(failure: TokenFailure): GatewayReply {
    const status = failure.httpStatus === undefined ? '' : ` (HTTP ${failure.httpStatus})`;
    context.emit({ type: 'internal-error', where: 'token', detail: `no token: ${failure.reason}${status}` });
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

/** `gateway.initiate`, ended early (as a time-out) when the attempt's deadline passes. */
async function initiateUntil(gateway: Pick<Gateway, 'initiate'>, body: GatewayRequest, flag: AbortFlag): Promise<InitiateOutcome> {
  const controller = new AbortController();
  const unsubscribe = flag.onAbort(() => controller.abort());
  try {
    return await gateway.initiate(body, { signal: controller.signal });
  } finally {
    unsubscribe();
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
export function answerAtDeadline(progress: AttemptProgress): Reply {
  return progress.answer ?? (progress.stage === 'lock' ? IN_USE : TIMED_OUT);
}

const IN_USE_MESSAGE = 'A request with this Idempotency-Key is in progress.';
const IN_USE = errorReply('idempotency_key_in_use', IN_USE_MESSAGE, undefined, { 'retry-after': '1' });

export function inUse(replies: SessionReplies): Reply {
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
