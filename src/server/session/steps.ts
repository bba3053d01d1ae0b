// One payment attempt's steps for one validated request: beforeInitiate, the order and its ledger
// entry (written before the gateway is asked), the initiation. The idempotency layer decides
// whether and when they run.
import type { SessionRequest } from '../../contract/schemas.js';
import { buildGatewayRequest, type Gateway, type TokenFailure } from '../gateway/gateway.js';
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
} from './order.js';
import type { StatusTokens } from '../status/tokens.js';
import type { PaymentStore } from '../stores/types.js';
import { ABANDONED, type AttemptProgress } from './deadline.js';
import type { SessionEvent } from './events.js';
import { enterPayment, recordAnswer, type Entered, type EnteredPayment, type LedgerAttempt } from './ledger.js';
import {
  checkReference,
  initiationAfter,
  NOT_SET_UP,
  outcomeDetail,
  replyForOutcome,
  replyForTokenFailure,
  sessionError,
  type GatewayReply,
  type OrderSummary,
  type SessionOutcome,
} from './outcomes.js';
import { accountLife, type TransferTerms } from './options.js';
import type { SessionReplies } from './replies.js';

type OrderResult = { ok: true; order: ResolvedOrder } | { ok: false; reply: Reply };

/** What one payment attempt does for one request; the idempotency layer decides whether and when. */
export type PaymentSteps = {
  /** `beforeInitiate`: undefined to go on, or the refusal. */
  admit(progress: AttemptProgress): Promise<Reply | undefined>;
  /**
   * The payment to ask about, in the ledger before the gateway is asked: the key's `known` order
   * (kept after an unanswered attempt), else the order resolved now; either gives way to the entry
   * the ledger already has for the key or the reference.
   */
  enter(known: ResolvedOrder | undefined, progress: AttemptProgress): Promise<Entered>;
  /** Asks the gateway; once it answered, sets `progress.state` to `answered` before the ledger is updated. */
  initiate(entered: EnteredPayment, progress: AttemptProgress): Promise<GatewayReply>;
};

/** What every request of one handler shares. */
export type PaymentContext = {
  order: OrderResolver;
  beforeInitiate: BeforeInitiate | undefined;
  payments: PaymentStore;
  /** Absent without `statusSecret`: the success body's `order` then has no `statusToken`. */
  statusTokens: StatusTokens | undefined;
  /** With `statusTokens`: where the widget polls, sent as `order.statusUrl` (resolved against its `session-url`). */
  statusUrl: string | undefined;
  /** Its token (made, cached, renewed) and the initiation; the request carries its `publicKey`. */
  gateway: Pick<Gateway, 'initiate' | 'publicKey'>;
  redactor: Redactor;
  emit: (event: SessionEvent) => void;
  /** TRANSFER: the account's days sent to the gateway, how long the customer is told it is valid, and the clock. */
  transfer: TransferTerms;
  now: () => number;
  /** Set once the handler has warned that no `beforeInitiate` limits the payments started. */
  warned: { noRateLimit: boolean };
};

/** One request, validated, with what its steps need of it. */
type PaymentStepsInput = {
  context: PaymentContext;
  body: SessionRequest;
  request: Request;
  /** The merchant's `clientAddress` (or the adapter's), asked only when `beforeInitiate` runs. */
  clientAddress: () => string | undefined | Promise<string | undefined>;
  /** Its Idempotency-Key: the default paymentReference is derived from it. */
  key: string | null;
  replies: SessionReplies;
  /** Also removes this request's customer details, for `onEvent`. */
  redact: (text: string) => string;
};

export function paymentSteps(input: PaymentStepsInput): PaymentSteps {
  const { context, key, replies } = input;
  const { paymentType } = input.body;
  const accountLifeMs = paymentType === 'TRANSFER' ? accountLife(context.transfer) : undefined;
  const customer = { name: input.body.fullName, phone: input.body.mobileNumber, email: input.body.email };
  const ledger: LedgerAttempt = {
    payments: context.payments,
    key,
    paymentType,
    replies,
    emit: context.emit,
    now: context.now,
    accountLifeMs,
    customer,
  };
  return {
    admit: (progress) => admit(input, progress),
    enter: (known, progress) => enterPayment(ledger, known, () => resolveOrder(input, progress), progress),
    initiate: (entered, progress) => initiate(input, ledger, entered, progress),
  };
}

/** A request without an Idempotency-Key (`requireIdempotencyKey: false`): no idempotency store, no replay; recorded all the same. */
export async function attemptWithoutKey(steps: PaymentSteps, progress: AttemptProgress): Promise<Reply> {
  const refused = await steps.admit(progress);
  if (refused) return refused;
  const entered = await steps.enter(undefined, progress);
  if (!entered.ok) return entered.reply;
  return (await steps.initiate(entered, progress)).reply;
}

async function admit(input: PaymentStepsInput, progress: AttemptProgress): Promise<Reply | undefined> {
  const { context, replies } = input;
  if (!context.beforeInitiate) return warnNoRateLimit(context);
  progress.stage = 'admit';
  try {
    const clientAddress = await input.clientAddress();
    await context.beforeInitiate({ request: input.request, body: input.body, clientAddress });
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

/** Once per handler: nothing limits how many payments one client starts, so one script can fill the ledger. */
function warnNoRateLimit(context: PaymentContext): undefined {
  if (context.warned.noRateLimit) return undefined;
  context.warned.noRateLimit = true;
  context.emit({ type: 'warning', code: 'no-rate-limit', message: NO_RATE_LIMIT });
  return undefined;
}

const NO_RATE_LIMIT =
  'no beforeInitiate is set: nothing limits how many payments one client starts (each is a ledger entry and a gateway call); throw RateLimitError from beforeInitiate per client address';

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
    const problem = new TypeError(
      `${unsafe.join(' and ')} must be https: (http: only on localhost); nothing was forwarded`,
    );
    replies.report('config', problem);
    return { ok: false, reply: sessionError('config', NOT_SET_UP) };
  }
  return checked;
}

async function initiate(
  input: PaymentStepsInput,
  ledger: LedgerAttempt,
  entered: EnteredPayment,
  progress: AttemptProgress,
): Promise<GatewayReply> {
  if (progress.signal.aborted) return ABANDONED;
  progress.stage = 'gateway';
  const result = await askGateway(input, entered, progress);
  progress.state = { phase: 'answered', answer: result.answer };
  // Without a token, or with the merchant's keys refused, nothing was made: the entry stays as it
  // was (due, for the reconciler), and the retry asks with the same reference.
  const reached = result.outcome && initiationAfter(result.outcome);
  if (!reached) return result.answer;
  progress.stage = 'ledger';
  await recordAnswer(ledger, entered, reached);
  if (reached === 'started') {
    const { paymentReference, amount, currency } = entered.order;
    input.context.emit({ type: 'initiated', paymentReference, paymentType: input.body.paymentType, amount, currency });
  }
  return result.answer;
}

type Asked = { answer: GatewayReply; outcome?: SessionOutcome };

/** The initiation, its `gateway` event, and its reply; `outcome` is absent when no token could be had. */
async function askGateway(
  input: PaymentStepsInput,
  entered: EnteredPayment,
  progress: AttemptProgress,
): Promise<Asked> {
  const { context, body } = input;
  const { order } = entered;
  const started = performance.now();
  // `retry: true` re-initiates a reference, as the gateway's own apps do (docs/architecture.md, "The initiation").
  const gatewayRequest = buildGatewayRequest(body, order, context.gateway.publicKey, context.transfer, entered.again);
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
  const summary = orderSummary(order, body.paymentType, context.transfer);
  if (outcome.kind === 'success' && context.statusTokens) {
    summary.statusToken = await context.statusTokens.sign(order.paymentReference);
    if (context.statusUrl !== undefined) summary.statusUrl = context.statusUrl;
  }
  return { answer: replyForOutcome(outcome, context.redactor.text, summary), outcome };
}

/** The success body's `order`; a TRANSFER account's validity counts from this answer. */
function orderSummary(
  order: ResolvedOrder,
  paymentType: SessionRequest['paymentType'],
  { validityMs, now }: TransferTerms,
): OrderSummary {
  const { paymentReference, amount, currency, fee } = order;
  return {
    paymentReference,
    amount,
    currency,
    ...(fee === undefined ? {} : { fee }),
    ...(paymentType === 'TRANSFER' ? { expiresAt: new Date(now() + validityMs).toISOString() } : {}),
  };
}

/** Only the reason and status reach `onEvent`: the token itself is never reported. */
function tokenFailed(context: PaymentContext, failure: TokenFailure): GatewayReply {
  const status = failure.httpStatus === undefined ? '' : ` (HTTP ${failure.httpStatus})`;
  if (!failure.repeated)
    context.emit({ type: 'internal-error', where: 'token', detail: `no token: ${failure.reason}${status}` });
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
