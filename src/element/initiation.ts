// One initiation, as the flow event it ends in. What runs after a submit (and a transfer's screen)
// is loaded first: a payment whose screen could not be shown is never started. When the prefetch
// has it, the request goes out in the click's own task, before the element's next update; nothing
// is sent when the attempt was abandoned while it loaded.
import type { Initiate } from './client.js';
import type { FlowEvent, PayFailure } from './flow.js';
import { loadForPayment } from './loading/for-payment.js';
import type { SessionRequest } from '../contract/schemas.js';

/** How an element initiates: its `initiate` property, else the built-in `fetch` to `sessionUrl`. */
export type Initiation = {
  /** The `initiate` property: replaces the built-in `fetch` to `sessionUrl`. */
  initiate: Initiate | undefined;
  sessionUrl: string | undefined;
  timeoutMs: number;
};

/** What a submit meets when the session endpoint, or the code that talks to it, cannot be reached. */
const NETWORK_FAILURE: PayFailure = { code: 'network', message: undefined, retryable: true };

/**
 * 128 random bits as hex, a new one per payment attempt. Not `randomUUID()`, which is missing outside secure contexts.
 */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const failed = (failure: PayFailure): FlowEvent => ({ type: 'failed', failure });

export async function initiate(
  { initiate, sessionUrl, timeoutMs }: Initiation,
  request: SessionRequest,
  idempotencyKey: string,
  signal: AbortSignal,
): Promise<FlowEvent> {
  if (!initiate && !sessionUrl) return failed({ code: 'config', message: undefined, retryable: false });
  let flow = loadForPayment(request.paymentType, timeoutMs);
  if (flow instanceof Promise) {
    try {
      flow = await flow;
    } catch (error) {
      // `setup`: the shop's server does not serve a file beside the script, so trying again cannot help.
      return failed(
        (error as { code?: 'setup' }).code ? { code: 'setup', message: undefined, retryable: false } : NETWORK_FAILURE,
      );
    }
    if (signal.aborted) return failed(NETWORK_FAILURE);
  }
  const transport: Initiate = initiate ?? ((body, options) => flow.postSession(sessionUrl!, body, options));
  try {
    const initiated = await flow.initiatePayment(transport, request, { idempotencyKey, signal, timeoutMs });
    return { type: 'initiated', ...initiated };
  } catch (error) {
    return failed(error instanceof flow.PayFailureError ? error.failure : NETWORK_FAILURE);
  }
}
