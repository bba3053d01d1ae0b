// The status endpoint (`status-url`): the status token check, then the ledger (re-querying a stale
// PENDING and settling it, see ledger-reader.ts) or the merchant's own lookup, answered as
// `{ status, amount?, currency?, message?, reason?, amountReceived?, currencyReceived?, now }`.
import { PAYMENT_REFERENCE } from '../../contract/rules.js';
import { statusResponseSchema, type StatusResponse } from '../../contract/schemas.js';
import type { Gateway } from '../gateway/gateway.js';
import { requireMethod } from '../../contract/request-checks.js';
import { createCorsPolicy, type AllowedOrigins } from '../http/cors.js';
import { withDeadline } from '../http/deadline.js';
import { createEmitter, errorName } from '../http/emitter.js';
import { corsEndpoint } from '../http/endpoint.js';
import { errorReply, jsonReply, type Reply } from '../http/reply.js';
import { assertStore } from '../options.js';
import { optionChecks } from '../../contract/option-checks.js';
import { scrubbedEmitter } from '../http/emitter.js';
import type { PaymentHook, VerifyEvent } from '../settlement/settle.js';
import { PAYMENT_STORE_METHODS, type PaymentStore } from '../stores/types.js';
import { createLedgerReader } from './ledger-reader.js';
import { createStatusTokens, type StatusSecret } from './tokens.js';

export type StatusLookupContext = {
  request: Request;
  /** Aborted when the handler stops waiting (after `timeoutMs`): pass it on to the database or API call. */
  signal: AbortSignal;
  /** The poll carried `recheck=1`: the customer says they have paid, so ask the gateway now if you can. */
  recheck: boolean;
};

export type StatusLookup = (
  paymentReference: string,
  context: StatusLookupContext,
) => StatusResponse | undefined | null | Promise<StatusResponse | undefined | null>;

/** What `onEvent` hears from the status handler: references, codes and amounts, never a token, key or customer detail. */
export type StatusEvent =
  | VerifyEvent
  /**
   * The answer was 500 or 504: `lookup` (or the ledger) threw, answered something invalid, or took
   * longer than `timeoutMs` (`detail` is then `TimeoutError`); `handler`, anything else. `detail`
   * is the error's class name only.
   */
  | { type: 'internal-error'; where: 'lookup' | 'handler'; detail: string };

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
   * the ledger with the webhook's one transition; `onPaid` then runs in the background (the poll
   * answers SUCCESS at once), under a lease, until it returns; a poll of a payment still owed it
   * (its back-off passed) runs it again. Without it this handler never settles a payment, so it
   * never re-queries.
   */
  onPaid?: PaymentHook;
  /** With `payments`: the webhook handler's `onFailed`, run the same way. */
  onFailed?: PaymentHook;
  /**
   * With `onPaid`: how long the lease that keeps other callers (a poll, a webhook, the reconciler,
   * here or on another instance) off `onPaid` lives unrenewed; renewed every third of it while
   * `onPaid` runs, it lapses this long after its process died; default 60 000 ms.
   */
  leaseMs?: number;
  /**
   * With `onPaid`: how long it is waited for; default 30 000 ms. Past it the call is given up: its
   * `signal` aborts, on the PostgreSQL ledger its transaction is rolled back, `onEvent` hears
   * `onPaid-timeout`; one that runs on keeps its lease until it ends, and the payment is then owed
   * again after its back-off.
   */
  onPaidTimeoutMs?: number;
  /**
   * Every re-query and settlement, and every failure to answer (`internal-error`), for logs; never a
   * token, key or customer detail.
   */
  onEvent?: (event: StatusEvent) => void | Promise<void>;
  /**
   * With `payments`: a PENDING payment the gateway was not asked about for this long is re-queried
   * by the next poll, one poll per interval however many tabs (and instances) poll; default 5 000 ms.
   * Past the payment's first hour, a sixtieth of its age when that is longer (a day-old one: 24 minutes).
   */
  recheckAfterMs?: number;
  /**
   * With `payments`: a poll with `recheck=1` (the widget's "I've sent the money") re-queries a
   * PENDING payment the gateway was not asked about for this long, instead of `recheckAfterMs`;
   * still one re-query per interval per reference, however many polls carry the flag; default 2 000 ms.
   */
  recheckFloorMs?: number;
  /**
   * The escape hatch for merchants with their own records, instead of `payments`: the payment's
   * status, or undefined/null when the reference is unknown (answered 404).
   */
  lookup?: StatusLookup;
  /** As for the session handler; default same origin only. */
  allowedOrigins?: AllowedOrigins;
  /** Request headers a cross-origin page may send besides the widget's own (see the session handler's). */
  allowedHeaders?: readonly string[];
  /**
   * The older name for `onEvent`'s `internal-error`, still called, with the error itself (whose
   * message may quote anything: do not show it to customers).
   */
  onError?: (error: unknown) => void;
  /**
   * How long to wait for `lookup` (or the ledger) before answering 504 `gateway_timeout`; default
   * 5 000 ms. A re-query still running at half of it leaves the answer PENDING and goes on.
   */
  timeoutMs?: number;
  /**
   * The server's clock, in milliseconds since the epoch; default `Date.now`. Every answer says its
   * time as `now` (a resumed widget counts the account's validity from it, not the phone's clock).
   */
  now?: () => number;
};

const METHODS = 'GET, HEAD, OPTIONS';
const DEFAULT_TIMEOUT_MS = 5_000;
const DEFAULT_RECHECK_AFTER_MS = 5_000;
const DEFAULT_RECHECK_FLOOR_MS = 2_000;

class LookupTimeoutError extends Error {
  override name = 'TimeoutError';
}

/** Said alike for an unknown reference and a missing, forged or expired token: references cannot be probed. */
const NOT_FOUND = 'No payment has this reference.';

/**
 * The widget's `status-url`: `GET ?paymentReference=…&statusToken=…` → `{ status, amount, currency, now }`
 * from the ledger (`{ status, message? }` from a `lookup`). Checks the token before anything is read.
 */
export function createStatusHandler(options: StatusHandlerOptions): (request: Request) => Promise<Response> {
  const tokens = createStatusTokens(options?.statusSecret as StatusSecret, { who: 'createStatusHandler' });
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  // The gateway's answers are text from outside: scrubbed before they are reported.
  const emit = scrubbedEmitter(options.onEvent, options.gateway, [options.statusSecret]);
  const lookup = checkedLookup(options, timeoutMs, emit);
  const cors = createCorsPolicy(options.allowedOrigins, METHODS, { allowedHeaders: options.allowedHeaders });
  /** A logging hook: it must not change the answer. */
  const onError = createEmitter(options.onError);

  async function handle(request: Request): Promise<Reply> {
    const problem = requireMethod(request, METHODS);
    if (problem) return errorReply(problem.code, problem.message, { headers: problem.headers });
    const query = new URL(request.url).searchParams;
    const paymentReference = query.get('paymentReference');
    if (!paymentReference || !PAYMENT_REFERENCE.test(paymentReference)) {
      return errorReply('validation', 'The paymentReference query parameter is missing or invalid.', {
        fields: {
          paymentReference: paymentReference
            ? 'Use up to 128 letters, digits, or . _ : / -.'
            : 'This field is required.',
        },
      });
    }
    if (!(await tokens.verify(paymentReference, query.get('statusToken')))) return errorReply('not_found', NOT_FOUND);
    let found: unknown;
    try {
      found = await lookupWithin(paymentReference, request, query.get('recheck') === '1');
    } catch (error) {
      if (error instanceof LookupTimeoutError) {
        report('lookup', error);
        return errorReply('gateway_timeout', 'The payment status took too long to read. Please try again.');
      }
      return failed('lookup', error);
    }
    if (found === undefined || found === null) return errorReply('not_found', NOT_FOUND);
    const parsed = statusResponseSchema.safeParse(found);
    if (!parsed.success) return failed('lookup', new TypeError('lookup returned an invalid status'));
    const { message, ...answer } = parsed.data;
    return jsonReply(200, { ...answer, ...(message == null ? {} : { message }), now: new Date(now()).toISOString() });
  }

  /** `lookup`, abandoned after `timeoutMs`: a hung database must not hold every poll open. */
  function lookupWithin(paymentReference: string, request: Request, recheck: boolean): Promise<unknown> {
    return withDeadline(
      timeoutMs,
      async (flag) => lookup(paymentReference, { request, signal: flag.signal, recheck }),
      () => {
        throw new LookupTimeoutError(`lookup took longer than ${timeoutMs} ms`);
      },
    );
  }

  function report(where: 'lookup' | 'handler', error: unknown): void {
    onError(error);
    emit({ type: 'internal-error', where, detail: errorName(error) });
  }

  function failed(where: 'lookup' | 'handler', error: unknown): Reply {
    report(where, error);
    return errorReply('internal', 'The payment status could not be read. Please try again.');
  }

  return corsEndpoint(cors, handle, { crashed: (error) => failed('handler', error) });
}

/**
 * `lookup`, or `payments` (with its gateway, hooks and interval) as one; refuses options that
 * cannot work with a TypeError.
 */
function checkedLookup(
  options: StatusHandlerOptions,
  timeoutMs: number,
  emit: (event: StatusEvent) => void,
): StatusLookup {
  const check = optionChecks('createStatusHandler');
  check.positiveMs('timeoutMs', options.timeoutMs);
  check.optionalFunction('onEvent', options.onEvent);
  check.optionalFunction('onError', options.onError);
  if (options.payments !== undefined && options.lookup !== undefined)
    check.fail('give exactly one of payments and lookup, not both');
  if (options.payments === undefined) {
    if (typeof options.lookup !== 'function') check.fail('give exactly one of payments (the ledger) and lookup');
    return options.lookup!;
  }
  assertStore(options.payments, PAYMENT_STORE_METHODS, 'createStatusHandler: the payments store');
  if (typeof options.gateway?.query !== 'function')
    check.fail('payments needs gateway (createGateway), to re-query a PENDING payment');
  check.optionalFunction('onPaid', options.onPaid);
  check.optionalFunction('onFailed', options.onFailed);
  check.nonNegativeMs('recheckAfterMs', options.recheckAfterMs);
  check.nonNegativeMs('recheckFloorMs', options.recheckFloorMs);
  check.positiveMs('leaseMs', options.leaseMs);
  check.positiveMs('onPaidTimeoutMs', options.onPaidTimeoutMs);
  const read = createLedgerReader({
    payments: options.payments,
    gateway: options.gateway!,
    onPaid: options.onPaid,
    onFailed: options.onFailed,
    emit,
    recheckAfterMs: options.recheckAfterMs ?? DEFAULT_RECHECK_AFTER_MS,
    recheckFloorMs: options.recheckFloorMs ?? DEFAULT_RECHECK_FLOOR_MS,
    recheckWaitMs: timeoutMs / 2,
    leaseMs: options.leaseMs,
    onPaidTimeoutMs: options.onPaidTimeoutMs,
  });
  return (paymentReference, { recheck }) => read(paymentReference, { recheck });
}
