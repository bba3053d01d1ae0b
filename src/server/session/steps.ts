// One payment attempt's steps for one validated request: beforeInitiate, the order, the initiation
// and the ledger entry. The idempotency layer decides whether and when they run.
import type { SessionRequest } from '../../schemas.js';
import { buildGatewayRequest, type Gateway, type TokenFailure } from '../gateway.js';
import type { Redactor } from '../http/redact.js';
import type { Reply } from '../http/reply.js';
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
} from '../order.js';
import type { StatusTokens } from '../status/tokens.js';
import type { PaymentStore } from '../stores.js';
import { ABANDONED, type AttemptProgress } from './deadline.js';
import type { SessionEvent } from './events.js';
import {
  checkReference,
  NOT_SET_UP,
  outcomeDetail,
  replyForOutcome,
  replyForTokenFailure,
  sessionError,
  type GatewayReply,
  type OrderSummary,
  type SessionOutcome,
} from './outcomes.js';
import type { SessionReplies } from './replies.js';

type OrderResult = { ok: true; order: ResolvedOrder } | { ok: false; reply: Reply };

/** What one payment attempt does for one request; the idempotency layer decides whether and when. */
export type PaymentSteps = {
  /** `beforeInitiate`: undefined to go on, or the refusal. */
  admit(progress: AttemptProgress): Promise<Reply | undefined>;
  resolveOrder(progress: AttemptProgress): Promise<OrderResult>;
  /** Asks the gateway; once it answered, sets `progress.state` to `answered` before the ledger is written. */
  initiate(order: ResolvedOrder, progress: AttemptProgress): Promise<GatewayReply>;
};

/** What every request of one handler shares. */
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

/** One request, validated, with what its steps need of it. */
type PaymentStepsInput = {
  context: PaymentContext;
  body: SessionRequest;
  request: Request;
  clientAddress: string | undefined;
  /** Its Idempotency-Key: the default paymentReference is derived from it. */
  key: string | null;
  replies: SessionReplies;
  /** Also removes this request's customer details, for `onEvent`. */
  redact: (text: string) => string;
};

export function paymentSteps(input: PaymentStepsInput): PaymentSteps {
  return {
    admit: (progress) => admit(input, progress),
    resolveOrder: (progress) => resolveOrder(input, progress),
    initiate: (order, progress) => initiate(input, order, progress),
  };
}

/** A request without an Idempotency-Key (`requireIdempotencyKey: false`): no store, no replay. */
export async function attemptWithoutKey(steps: PaymentSteps, progress: AttemptProgress): Promise<Reply> {
  const refused = await steps.admit(progress);
  if (refused) return refused;
  const resolved = await steps.resolveOrder(progress);
  if (!resolved.ok) return resolved.reply;
  return (await steps.initiate(resolved.order, progress)).reply;
}

async function admit(input: PaymentStepsInput, progress: AttemptProgress): Promise<Reply | undefined> {
  const { context, replies } = input;
  if (!context.beforeInitiate) return undefined;
  progress.stage = 'admit';
  try {
    await context.beforeInitiate({ request: input.request, body: input.body, clientAddress: input.clientAddress });
    return undefined;
  } catch (error) {
    if (RateLimitError.is(error)) {
      const seconds = error.retryAfterSeconds;
      context.emit({ type: 'rate-limited', retryAfterSeconds: seconds });
      return replies.reject('rate_limited', `Too many payment attempts. Please try again in ${seconds} s.`, {
        headers: { 'retry-after': String(seconds) },
      });
    }
    if (OrderError.is(error)) return orderRefused(input, error);
    return replies.internal('beforeInitiate', error);
  }
}

async function resolveOrder(input: PaymentStepsInput, progress: AttemptProgress): Promise<OrderResult> {
  const { context, replies, key } = input;
  progress.stage = 'order';
  let value: unknown;
  try {
    value = await context.order(input.body, { request: input.request });
  } catch (error) {
    if (!OrderError.is(error)) return { ok: false, reply: replies.internal('order', error) };
    return { ok: false, reply: orderRefused(input, error) };
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
    return { ok: false, reply: sessionError('config', NOT_SET_UP) };
  }
  return checked;
}

async function initiate(input: PaymentStepsInput, order: ResolvedOrder, progress: AttemptProgress): Promise<GatewayReply> {
  if (progress.signal.aborted) return ABANDONED;
  progress.stage = 'gateway';
  const result = await askGateway(input, order, progress);
  progress.state = { phase: 'answered', answer: result.answer };
  // A duplicate reference says a payment with it exists, not what became of it: it is recorded
  // PENDING when the ledger lacks it (an entry it has is left alone), and the query decides.
  const kind = result.outcome?.kind;
  if (kind === 'success' || kind === 'duplicate-reference') await record(input, order, progress, kind === 'success');
  return result.answer;
}

type Asked = { answer: GatewayReply; outcome?: SessionOutcome };

/** The initiation, its `gateway` event, and its reply; `outcome` is absent when no token could be had. */
async function askGateway(input: PaymentStepsInput, order: ResolvedOrder, progress: AttemptProgress): Promise<Asked> {
  const { context, body } = input;
  const started = performance.now();
  const gatewayRequest = buildGatewayRequest(body, order, context.gateway.publicKey);
  // Past the deadline the gateway call is ended early, as a time-out.
  const answered = await context.gateway.initiate(gatewayRequest, { signal: progress.signal.signal });
  if (answered.kind === 'token-failed') return { answer: tokenFailed(context, answered) };
  const outcome = checkReference(answered, order.paymentReference);
  const detail = outcomeDetail(outcome, input.redact);
  context.emit({
    type: 'gateway',
    outcome: outcome.kind,
    paymentType: body.paymentType,
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
  return { answer: replyForOutcome(outcome, context.redactor.text, summary), outcome };
}

/** Only the reason and status reach `onEvent`: the token itself is never reported. */
function tokenFailed(context: PaymentContext, failure: TokenFailure): GatewayReply {
  const status = failure.httpStatus === undefined ? '' : ` (HTTP ${failure.httpStatus})`;
  if (!failure.repeated) context.emit({ type: 'internal-error', where: 'token', detail: `no token: ${failure.reason}${status}` });
  return replyForTokenFailure(failure);
}

/** The message and fields reach the customer, so they are cleaned of secrets like everything else. */
function orderRefused(input: PaymentStepsInput, error: OrderError): Reply {
  const clean = input.context.redactor.text;
  const fields = error.fields
    ? Object.fromEntries(Object.entries(error.fields).map(([field, message]) => [clean(field), clean(String(message))]))
    : undefined;
  return input.replies.reject('order_refused', clean(error.message), { fields, status: error.status });
}

/**
 * The ledger's entry for a payment the gateway has (`initiated`: it accepted it just now; else it
 * already had one with this reference); a failure here cannot unmake the payment.
 */
async function record(input: PaymentStepsInput, order: ResolvedOrder, progress: AttemptProgress, initiated: boolean): Promise<void> {
  progress.stage = 'ledger';
  const time = Date.now();
  const { paymentReference, amount, currency } = order;
  const { paymentType } = input.body;
  try {
    await input.context.payments.insert({
      paymentReference,
      paymentType,
      amount,
      currency,
      state: 'PENDING',
      version: 1,
      createdAt: time,
      updatedAt: time,
    });
    if (initiated) input.context.emit({ type: 'initiated', paymentReference, paymentType, amount, currency });
  } catch (error) {
    input.replies.report('ledger', error);
  }
}
