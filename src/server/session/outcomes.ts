// The gateway's outcomes in the customer's words: the reply each one gets, whether Try again can
// help, and what the Idempotency-Key keeps of it. Pure: no I/O, no events.
import { redactEnvelope, type GatewayOutcome, type TokenFailure } from '../gateway/gateway.js';
import { errorReply, jsonReply, type ErrorCode, type ErrorReplyOptions, type Reply } from '../http/reply.js';
import type { Initiation } from '../stores/types.js';

/**
 * What the idempotency store keeps of an attempt that asked the gateway: `done`, a definitive answer
 * replayed to every retry (instructions, a decline, a gateway 4xx); `pending`, only the order, after
 * an answer that may hide a half-made payment (time-out, refused connection, 5xx, unreadable), so a
 * retry asks the gateway again with the same paymentReference; `release`, nothing, when no
 * payment can have been made (no token; the gateway refused the merchant's keys or address), so
 * the retry starts afresh once that is fixed.
 */
export type Keep = 'done' | 'pending' | 'release';

export type GatewayReply = { reply: Reply; keep: Keep };

/**
 * The gateway's outcome as this attempt reads it: a success whose envelope names a paymentReference
 * other than the one sent (`named`) is `foreign-reference`, another payment's instructions.
 */
export type SessionOutcome = GatewayOutcome | { kind: 'foreign-reference'; httpStatus: number; named: string };

/**
 * The session-endpoint contract's `order`: what the server charges (`fee`, when the resolver gave
 * one, is part of `amount`), the token for `status-url`, and for TRANSFER until when the customer
 * is told the account is valid (`expiresAt`, ISO 8601 in UTC) with the time left as this server
 * measured it when the answer left (`expiresInMs`, stamped by time-left.ts).
 */
export type OrderSummary = {
  paymentReference: string;
  amount: string;
  currency: string;
  statusToken?: string;
  /** Where to poll with `statusToken`, resolved against `session-url`; polled when the widget has no `status-url`. */
  statusUrl?: string;
  fee?: string;
  expiresAt?: string;
  expiresInMs?: number;
};

/** The longest gateway message passed to `onEvent`, counted after redaction. */
const MAX_MESSAGE_LENGTH = 300;

/**
 * The customer's words for each outcome. The gateway's own text only ever goes to `onEvent`: it may
 * be internal, in another language, or quote what it should not.
 */
export const CUSTOMER_MESSAGES = {
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
  foreign: "The payment gateway's answer did not match this payment. Please try again.",
} as const;

/** For a merchant's misconfiguration: nothing the customer can fix, nothing forwarded. */
export const NOT_SET_UP = 'Payments are not set up correctly on this site. Please contact the merchant.';

export const GENERIC_FAILURE = 'Something went wrong on our side. Please try again.';

/**
 * The codes whose request may succeed when tried again unchanged: the gateway or a store was slow,
 * down or unclear, or another attempt held the key. Every other code needs a change first (the
 * request, the order, the merchant's setup) or is final (a decline, a duplicate reference).
 */
const RETRYABLE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'request_timeout',
  'idempotency_key_in_use',
  'rate_limited',
  'gateway_error',
  'gateway_unreachable',
  'invalid_gateway_response',
  'gateway_timeout',
  'internal',
  'server_busy',
]);

/** A session error reply, which always says whether Try again can help: by its code unless `retryable` is given. */
export function sessionError(code: ErrorCode, message: string, options: ErrorReplyOptions = {}): Reply {
  return errorReply(code, message, { ...options, retryable: options.retryable ?? RETRYABLE_CODES.has(code) });
}

/** Redacts first, then shortens: a cut made first could leave a secret's prefix for redaction to miss. */
function shortened(message: string, redact: (text: string) => string): string {
  return redact(message).slice(0, MAX_MESSAGE_LENGTH);
}

/** Instructions are this payment's only when they name the paymentReference that was `sent`. */
export function checkReference(outcome: GatewayOutcome, sent: string): SessionOutcome {
  if (outcome.kind !== 'success') return outcome;
  const named = outcome.envelope.data.payments.paymentReference ?? '';
  return named === sent ? outcome : { kind: 'foreign-reference', httpStatus: outcome.httpStatus, named };
}

/** What `onEvent` hears of an outcome: the gateway's message, redacted, or the network error code. */
export function outcomeDetail(outcome: SessionOutcome, redact: (text: string) => string): string | undefined {
  switch (outcome.kind) {
    case 'unreachable':
      return outcome.reason;
    case 'foreign-reference':
      return shortened(`the answer names paymentReference ${outcome.named}`, redact);
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

/**
 * The gateway refused the merchant's keys (401, 403: test keys on live) or knows no such endpoint
 * (404): no payment can have been made, and nothing the customer does helps until the merchant fixes it.
 */
function isConfigRefusal(httpStatus: number): boolean {
  return httpStatus === 401 || httpStatus === 403 || httpStatus === 404;
}

/**
 * A gateway answer outside 2xx. A refusal of the merchant's setup is not this key's final answer:
 * once it is fixed, the same retry goes through. Other 4xx are final for this request; the rest may
 * pass later, and may hide a half-made payment.
 */
function replyForHttpError(httpStatus: number): GatewayReply {
  if (isConfigRefusal(httpStatus)) {
    return {
      reply: sessionError('gateway_error', CUSTOMER_MESSAGES.unavailable, { retryable: false }),
      keep: 'release',
    };
  }
  if (isDefinitiveStatus(httpStatus)) {
    return { reply: sessionError('gateway_error', CUSTOMER_MESSAGES.refused, { retryable: false }), keep: 'done' };
  }
  return { reply: sessionError('gateway_error', CUSTOMER_MESSAGES.failing), keep: 'pending' };
}

/**
 * Where the payment's start stands after this answer, for its ledger entry: instructions, started;
 * a decline or a definitive 4xx, refused: it never started; anything else (time-out, 5xx,
 * unreadable, a duplicate or foreign reference) may hide a payment, unknown, for the reconciler to
 * query. Undefined when the gateway refused the merchant's setup: nothing was made, and the entry
 * stays as it was, so the same key goes through once the setup is fixed.
 */
export function initiationAfter(outcome: SessionOutcome): Initiation | undefined {
  if (outcome.kind === 'success') return 'started';
  if (outcome.kind === 'declined') return 'refused';
  if (outcome.kind !== 'http-error') return 'unknown';
  if (isConfigRefusal(outcome.httpStatus)) return undefined;
  return isDefinitiveStatus(outcome.httpStatus) ? 'refused' : 'unknown';
}

/** `order` goes into the success body; `redact` cleans the envelope's strings of every secret. */
export function replyForOutcome(
  outcome: SessionOutcome,
  redact: (text: string) => string,
  order: OrderSummary,
): GatewayReply {
  switch (outcome.kind) {
    case 'success':
      return { reply: jsonReply(200, { ...redactEnvelope(outcome.envelope, redact), order }), keep: 'done' };
    case 'declined':
      return { reply: sessionError('payment_declined', CUSTOMER_MESSAGES.declined), keep: 'done' };
    case 'http-error':
      return replyForHttpError(outcome.httpStatus);
    case 'duplicate-reference':
      // Asking again with the same reference gets the same answer; the ledger and the query decide its fate.
      return { reply: sessionError('duplicate_reference', CUSTOMER_MESSAGES.duplicate), keep: 'done' };
    case 'unconfirmed':
      return { reply: sessionError('gateway_error', CUSTOMER_MESSAGES.unconfirmed), keep: 'pending' };
    case 'missing-fields':
      return { reply: sessionError('invalid_gateway_response', CUSTOMER_MESSAGES.incomplete), keep: 'pending' };
    case 'unreadable':
      return { reply: sessionError('invalid_gateway_response', CUSTOMER_MESSAGES.unreadable), keep: 'pending' };
    case 'foreign-reference':
      // The payment sent may exist all the same: its retry asks again with the same reference.
      return { reply: sessionError('invalid_gateway_response', CUSTOMER_MESSAGES.foreign), keep: 'pending' };
    case 'timeout':
      return { reply: sessionError('gateway_timeout', CUSTOMER_MESSAGES.timeout), keep: 'pending' };
    case 'unreachable':
      return { reply: sessionError('gateway_unreachable', CUSTOMER_MESSAGES.unreachable), keep: 'pending' };
  }
}

/**
 * No token, so no initiation went out (or the gateway refused it with a 401): nothing is kept, and
 * the retry asks afresh. Keys the gateway refuses are the merchant's to fix.
 */
export function replyForTokenFailure(failure: TokenFailure): GatewayReply {
  switch (failure.reason) {
    case 'timeout':
      return { reply: sessionError('gateway_timeout', CUSTOMER_MESSAGES.timeout), keep: 'release' };
    case 'unreachable':
      return { reply: sessionError('gateway_unreachable', CUSTOMER_MESSAGES.unreachable), keep: 'release' };
    case 'source-failed':
      return { reply: sessionError('internal', GENERIC_FAILURE), keep: 'release' };
    case 'refused':
    case 'unreadable':
      return { reply: sessionError('config', NOT_SET_UP), keep: 'release' };
  }
}
