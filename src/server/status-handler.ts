import { PAYMENT_REFERENCE } from '../rules.js';
import { statusResponseSchema, type StatusResponse } from '../schemas.js';
import type { Gateway } from './gateway.js';
import { corsEndpoint, createCorsPolicy, errorReply, jsonReply, type AllowedOrigins, type Reply } from './http.js';
import { createEmitter } from './session-events.js';
import type { PaymentHook } from './settle.js';
import { createLedgerReader, type StatusEvent } from './status-ledger.js';
import { createStatusTokens, type StatusSecret } from './status-token.js';
import { assertStore, PAYMENT_STORE_METHODS, type PaymentStore } from './stores.js';

export type StatusLookupContext = {
  request: Request;
  /** Aborted when the handler stops waiting (after `timeoutMs`): pass it on to the database or API call. */
  signal: AbortSignal;
};

export type StatusLookup = (
  paymentReference: string,
  context: StatusLookupContext,
) => StatusResponse | undefined | null | Promise<StatusResponse | undefined | null>;

export type StatusHandlerOptions = {
  /**
   * The session handler's `statusSecret`: only a poll carrying the `statusToken` it signed for the
   * reference is looked up. At least 32 bytes.
   */
  statusSecret: StatusSecret;
  /**
   * The ledger the session handler records payments in: the answer is its entry's state, amount and
   * currency. Give exactly one of `payments` and `lookup`.
   */
  payments?: PaymentStore;
  /** With `payments`: the `createGateway(…)` object, to re-query a payment still PENDING. */
  gateway?: Pick<Gateway, 'query'>;
  /**
   * With `payments`: the webhook handler's `onPaid`. A re-query that finds the payment settled moves
   * the ledger with the webhook's one transition, and whichever path wins runs it, once per
   * reference. Without it this handler never settles a payment, so it never re-queries.
   */
  onPaid?: PaymentHook;
  /** With `payments`: the webhook handler's `onFailed`, run the same way. */
  onFailed?: PaymentHook;
  /** With `payments`: every re-query and settlement, for logs; never a token, key or customer detail. */
  onEvent?: (event: StatusEvent) => void | Promise<void>;
  /**
   * With `payments`: a PENDING payment the gateway was not asked about for this long is re-queried
   * by the next poll, one poll per interval however many tabs (and instances) poll; default 5 000 ms.
   */
  recheckAfterMs?: number;
  /**
   * The escape hatch for merchants with their own records, instead of `payments`: the payment's
   * status, or undefined/null when the reference is unknown (answered 404).
   */
  lookup?: StatusLookup;
  /** As for the session handler; default same origin only. */
  allowedOrigins?: AllowedOrigins;
  /** Request headers a cross-origin page may send besides the widget's own (see the session handler's). */
  allowedHeaders?: readonly string[];
  /** Called with what went wrong when `lookup` (or the ledger) throws, answers something invalid, or times out. */
  onError?: (error: unknown) => void;
  /**
   * How long to wait for `lookup` (or the ledger) before answering 504 `gateway_timeout`; default
   * 5 000 ms. A re-query still running at half of it leaves the answer PENDING and goes on.
   */
  timeoutMs?: number;
};

const METHODS = 'GET, HEAD, OPTIONS';
const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_RECHECK_AFTER_MS = 5_000;

class LookupTimeoutError extends Error {
  override name = 'TimeoutError';
}

/** Said alike for an unknown reference and a missing, forged or expired token: references cannot be probed. */
const NOT_FOUND = 'No payment has this reference.';

/**
 * The widget's `status-url`: `GET ?paymentReference=…&statusToken=…` → `{ status, amount, currency }`
 * from the ledger (`{ status, message? }` from a `lookup`). Checks the token before anything is read.
 */
export function createStatusHandler(options: StatusHandlerOptions): (request: Request) => Promise<Response> {
  const tokens = createStatusTokens(options?.statusSecret as StatusSecret, { who: 'createStatusHandler' });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new TypeError('createStatusHandler: timeoutMs must be a positive number');
  const lookup = options.payments !== undefined ? ledgerLookup(options, timeoutMs) : options.lookup;
  if (options.payments !== undefined && options.lookup !== undefined) {
    throw new TypeError('createStatusHandler: give exactly one of payments and lookup, not both');
  }
  if (typeof lookup !== 'function') throw new TypeError('createStatusHandler: give exactly one of payments (the ledger) and lookup');
  const cors = createCorsPolicy(options.allowedOrigins, METHODS, { allowedHeaders: options.allowedHeaders });

  async function handle(request: Request): Promise<Reply> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return errorReply('method_not_allowed', 'Use GET.', undefined, { allow: METHODS });
    }
    const query = new URL(request.url).searchParams;
    const paymentReference = query.get('paymentReference');
    if (!paymentReference || !PAYMENT_REFERENCE.test(paymentReference)) {
      return errorReply('validation', 'The paymentReference query parameter is missing or invalid.', {
        paymentReference: paymentReference ? 'Use up to 128 letters, digits, or . _ : / -.' : 'This field is required.',
      });
    }
    if (!(await tokens.verify(paymentReference, query.get('statusToken')))) return errorReply('not_found', NOT_FOUND);
    let found: unknown;
    try {
      found = await lookupWithin(paymentReference, request);
    } catch (error) {
      if (error instanceof LookupTimeoutError) {
        report(error);
        return errorReply('gateway_timeout', 'The payment status took too long to read. Please try again.');
      }
      return failed(error);
    }
    if (found === undefined || found === null) return errorReply('not_found', NOT_FOUND);
    const parsed = statusResponseSchema.safeParse(found);
    if (!parsed.success) return failed(new TypeError('lookup returned an invalid status'));
    const { status, message, amount, currency } = parsed.data;
    return jsonReply(200, { status, ...(amount === undefined ? {} : { amount }), ...(currency === undefined ? {} : { currency }), ...(message == null ? {} : { message }) });
  }

  /** `lookup`, abandoned after `timeoutMs`: a hung database must not hold every poll open. */
  async function lookupWithin(paymentReference: string, request: Request): Promise<unknown> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new LookupTimeoutError(`lookup took longer than ${timeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    try {
      // Called inside the race so a synchronous throw is a rejection like any other.
      const found = Promise.resolve().then(() => lookup!(paymentReference, { request, signal: controller.signal }));
      return await Promise.race([found, timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  function report(error: unknown): void {
    try {
      options.onError?.(error);
    } catch {
      // a logging hook must not change the answer
    }
  }

  function failed(error: unknown): Reply {
    report(error);
    return errorReply('internal', 'The payment status could not be read. Please try again.');
  }

  return corsEndpoint(cors, handle, { crashed: failed });
}

/** `payments` (and its gateway, hooks and interval) as a lookup; refuses a half-given ledger with a TypeError. */
function ledgerLookup(options: StatusHandlerOptions, timeoutMs: number): StatusLookup {
  const fail = (problem: string) => {
    throw new TypeError(`createStatusHandler: ${problem}`);
  };
  assertStore(options.payments, PAYMENT_STORE_METHODS, 'createStatusHandler: the payments store');
  if (typeof options.gateway?.query !== 'function') fail('payments needs gateway (createGateway), to re-query a PENDING payment');
  for (const name of ['onPaid', 'onFailed', 'onEvent'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') fail(`${name} must be a function`);
  }
  const recheckAfterMs = options.recheckAfterMs ?? DEFAULT_RECHECK_AFTER_MS;
  if (!(typeof recheckAfterMs === 'number' && Number.isFinite(recheckAfterMs) && recheckAfterMs >= 0)) {
    fail('recheckAfterMs must be a finite number, 0 or more');
  }
  const read = createLedgerReader({
    payments: options.payments!,
    gateway: options.gateway!,
    onPaid: options.onPaid,
    onFailed: options.onFailed,
    emit: createEmitter(options.onEvent),
    recheckAfterMs,
    recheckWaitMs: timeoutMs / 2,
  });
  return (paymentReference) => read(paymentReference);
}
