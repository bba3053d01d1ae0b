import type { SessionRequest } from '../schemas.js';
import { withDeadline, type AbortFlag } from './deadline.js';
import type { GatewayCall } from './gateway-client.js';
import { outcomeDetail, replyForOutcome, type GatewayReply } from './gateway-replies.js';
import { buildGatewayRequest } from './gateway-request.js';
import { checkOrder, OrderError, type Order, type OrderResolver, type ResolvedOrder } from './order.js';
import { randomReference, referenceForKey } from './payment-reference.js';
import type { Redactor } from './redact.js';
import { errorReply, type Reply } from './reply.js';
import type { SessionEvent } from './session-events.js';
import type { SessionReplies } from './session-replies.js';

export type AttemptStage = 'lock' | 'store' | 'order' | 'token' | 'gateway';

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
  resolveOrder(progress: AttemptProgress): Promise<OrderResult>;
  initiate(order: ResolvedOrder, progress: AttemptProgress): Promise<GatewayReply>;
};

export type PaymentContext = {
  order: OrderResolver;
  accessToken: string | (() => string | Promise<string>);
  publicKey: string;
  callGateway: GatewayCall;
  redactor: Redactor;
  emit: (event: SessionEvent) => void;
};

/** The answer given in place of an attempt the deadline abandoned; nobody receives it. */
export const ABANDONED_REPLY = errorReply('gateway_timeout', 'Abandoned.');
const ABANDONED: GatewayReply = { reply: ABANDONED_REPLY, definitive: false };

const STAGE_WORDS: Record<AttemptStage, string> = {
  lock: 'waiting for another attempt with the same Idempotency-Key',
  store: 'waiting for the idempotency store',
  order: 'waiting for the order resolver',
  token: 'waiting for the access token',
  gateway: 'waiting for the gateway',
};

/**
 * The steps for one validated request. `key` is its Idempotency-Key: the default paymentReference
 * is derived from it. `redact` also removes this request's customer details, for `onEvent`.
 */
export function paymentSteps(
  context: PaymentContext,
  sessionRequest: SessionRequest,
  request: Request,
  key: string | null,
  replies: SessionReplies,
  redact: (text: string) => string,
): PaymentSteps {
  return {
    async resolveOrder(progress) {
      progress.stage = 'order';
      let value: unknown;
      try {
        value = await context.order(sessionRequest, { request });
      } catch (error) {
        if (!OrderError.is(error)) return { ok: false, reply: replies.internal('order', error) };
        return {
          ok: false,
          reply: replies.reject('order_refused', context.redactor.text(error.message), {
            fields: error.fields,
            status: error.status,
          }),
        };
      }
      const given = typeof value === 'object' && value !== null ? (value as Partial<Order>).paymentReference : null;
      // Hashed only when the resolver gave no reference, once per attempt; synchronous in Node.
      let fallback: string | undefined;
      if (given === undefined && key !== null) {
        const reference = referenceForKey(key);
        fallback = typeof reference === 'string' ? reference : await reference;
      }
      const checked = checkOrder(value, () => fallback ?? randomReference());
      if (checked.ok) return checked;
      const problem = new TypeError(`invalid order field(s): ${checked.badFields.join(', ')}`);
      return { ok: false, reply: replies.internal('order', problem) };
    },

    async initiate(order, progress) {
      progress.stage = 'token';
      let token: string;
      try {
        token = typeof context.accessToken === 'string' ? context.accessToken : await context.accessToken();
        if (typeof token !== 'string' || token === '') throw new TypeError('accessToken gave no token');
        context.redactor.add(token);
      } catch (error) {
        return { reply: replies.internal('token', error), definitive: false };
      }
      if (progress.signal.aborted) return ABANDONED;
      progress.stage = 'gateway';
      const started = performance.now();
      const gatewayRequest = buildGatewayRequest(sessionRequest, order, context.publicKey);
      const outcome = await context.callGateway(gatewayRequest, token, progress.signal);
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
      const result = replyForOutcome(outcome, context.redactor.text);
      progress.answer = result.reply;
      return result;
    },
  };
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
  return errorReply('gateway_timeout', 'The payment could not be started in time. Please try again.');
}

export function inUse(replies: SessionReplies): Reply {
  return replies.reject('idempotency_key_in_use', 'A request with this Idempotency-Key is in progress.', {
    headers: { 'retry-after': '1' },
  });
}

/** A request without an Idempotency-Key (`requireIdempotencyKey: false`): no store, no replay. */
export async function attemptWithoutKey(steps: PaymentSteps, progress: AttemptProgress): Promise<Reply> {
  const resolved = await steps.resolveOrder(progress);
  if (!resolved.ok) return resolved.reply;
  return (await steps.initiate(resolved.order, progress)).reply;
}
