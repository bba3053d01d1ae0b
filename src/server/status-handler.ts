import { statusResponseSchema, type StatusResponse } from '../schemas.js';
import { createCorsPolicy, type AllowedOrigins } from './cors.js';
import { corsEndpoint } from './endpoint.js';
import { errorReply, jsonReply, type Reply } from './reply.js';

export type StatusLookup = (
  paymentReference: string,
  context: { request: Request },
) => StatusResponse | undefined | null | Promise<StatusResponse | undefined | null>;

export type StatusHandlerOptions = {
  /** The payment's status, or undefined/null when the reference is unknown (answered 404). */
  lookup: StatusLookup;
  /** As for the session handler; default same origin only. */
  allowedOrigins?: AllowedOrigins;
  /** Called with what went wrong when `lookup` throws or answers something invalid. */
  onError?: (error: unknown) => void;
};

const METHODS = 'GET, HEAD, OPTIONS';
const PAYMENT_REFERENCE = /^[\w.:-]{1,128}$/;

/** The widget's `status-url`: `GET ?paymentReference=…` → `{ status, message? }`. */
export function createStatusHandler(options: StatusHandlerOptions): (request: Request) => Promise<Response> {
  if (typeof options?.lookup !== 'function') throw new TypeError('createStatusHandler: lookup is required');
  const cors = createCorsPolicy(options.allowedOrigins, METHODS);

  async function handle(request: Request): Promise<Reply> {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return errorReply('method_not_allowed', 'Use GET.', undefined, { allow: METHODS });
    }
    const paymentReference = new URL(request.url).searchParams.get('paymentReference');
    if (!paymentReference || !PAYMENT_REFERENCE.test(paymentReference)) {
      return errorReply('validation', 'The paymentReference query parameter is missing or invalid.', {
        paymentReference: paymentReference ? 'Use up to 128 letters, digits, or . _ : -.' : 'This field is required.',
      });
    }
    let found: unknown;
    try {
      found = await options.lookup(paymentReference, { request });
    } catch (error) {
      return failed(error);
    }
    if (found === undefined || found === null) return errorReply('not_found', 'No payment has this reference.');
    const parsed = statusResponseSchema.safeParse(found);
    if (!parsed.success) return failed(new TypeError('lookup returned an invalid status'));
    const { status, message } = parsed.data;
    return jsonReply(200, message == null ? { status } : { status, message });
  }

  function failed(error: unknown): Reply {
    try {
      options.onError?.(error);
    } catch {
      // a logging hook must not change the answer
    }
    return errorReply('internal', 'The payment status could not be read. Please try again.');
  }

  return corsEndpoint(cors, handle, { crashed: failed });
}
