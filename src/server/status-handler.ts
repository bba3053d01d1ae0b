import { PAYMENT_REFERENCE } from '../rules.js';
import { statusResponseSchema, type StatusResponse } from '../schemas.js';
import { createCorsPolicy, type AllowedOrigins } from './cors.js';
import { corsEndpoint } from './endpoint.js';
import { errorReply, jsonReply, type Reply } from './reply.js';
import { createStatusTokens, type StatusSecret } from './status-token.js';

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
  /** The payment's status, or undefined/null when the reference is unknown (answered 404). */
  lookup: StatusLookup;
  /** As for the session handler; default same origin only. */
  allowedOrigins?: AllowedOrigins;
  /** Request headers a cross-origin page may send besides the widget's own (see the session handler's). */
  allowedHeaders?: readonly string[];
  /** Called with what went wrong when `lookup` throws, answers something invalid, or times out. */
  onError?: (error: unknown) => void;
  /** How long to wait for `lookup` before answering 504 `gateway_timeout`; default 5 000 ms. */
  timeoutMs?: number;
};

const METHODS = 'GET, HEAD, OPTIONS';
const DEFAULT_TIMEOUT_MS = 5_000;

class LookupTimeoutError extends Error {
  override name = 'TimeoutError';
}

/** Said alike for an unknown reference and a missing, forged or expired token: references cannot be probed. */
const NOT_FOUND = 'No payment has this reference.';

/**
 * The widget's `status-url`: `GET ?paymentReference=…&statusToken=…` → `{ status, message? }`.
 * Checks the token, then asks `lookup`.
 */
export function createStatusHandler(options: StatusHandlerOptions): (request: Request) => Promise<Response> {
  const tokens = createStatusTokens(options?.statusSecret as StatusSecret, { who: 'createStatusHandler' });
  if (typeof options.lookup !== 'function') throw new TypeError('createStatusHandler: lookup is required');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new TypeError('createStatusHandler: timeoutMs must be a positive number');
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
    const { status, message } = parsed.data;
    return jsonReply(200, message == null ? { status } : { status, message });
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
      const found = Promise.resolve().then(() => options.lookup(paymentReference, { request, signal: controller.signal }));
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
